"""Fetches CPMpy's own tests for the solver interface and copies them next to this script.

    python fetch.py            # downloads cpmpy 1.1.1's sdist from PyPI into .cache/ once
    python fetch.py --force    # copies the test files again even if they are there

CPMpy's wheel has no tests and its sdist has them without their ``conftest.py`` and ``utils.py``:
those two are ours, in this directory. The sdist's checksum is pinned so that the suite that runs
is the one ``EXPECTED.md`` was written against; ``.cache/`` and the copied files are gitignored.
"""

import argparse
import hashlib
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

VERSION = "1.1.1"
SDIST = f"cpmpy-{VERSION}.tar.gz"
SHA256 = "8aad82fb21b93119d0785a19c49d2c77e351728fc3ac4d8fe0c0b388ffd67586"
TEST_FILES = [
    "test_constraints.py",
    "test_solverinterface.py",
    "test_solveAll.py",
    "test_solvers.py",
    "test_globalconstraints.py",
]

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def download() -> Path:
    """The sdist in the cache, downloaded with pip if it is not there (or not the pinned one)."""
    sdist = CACHE / SDIST
    if sdist.exists() and sha256(sdist) == SHA256:
        return sdist
    CACHE.mkdir(exist_ok=True)
    # `--no-binary :all:` makes pip take the sdist (the wheel has no tests); `--no-deps` because
    # only the archive is wanted, not an environment.
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
         f"cpmpy=={VERSION}", "--dest", str(CACHE)],
        check=True,
    )
    found = sha256(sdist)
    if found != SHA256:
        sys.exit(f"{sdist}: sha256 {found}, expected {SHA256}")
    return sdist


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="copy the test files even if present")
    args = parser.parse_args()

    if not args.force and all((HERE / name).exists() for name in TEST_FILES):
        print(f"CPMpy {VERSION}'s test files are already in {HERE}")
        return
    sdist = download()
    with tarfile.open(sdist) as archive:
        for name in TEST_FILES:
            member = archive.getmember(f"cpmpy-{VERSION}/tests/{name}")
            with archive.extractfile(member) as source, open(HERE / name, "wb") as target:
                shutil.copyfileobj(source, target)
            print(f"{name}: copied from {SDIST}")
    # CPMpy's license applies to the copied tests; keep it beside them.
    with tarfile.open(sdist) as archive:
        member = archive.getmember(f"cpmpy-{VERSION}/LICENSE")
        with archive.extractfile(member) as source, open(HERE / "LICENSE-cpmpy", "wb") as target:
            shutil.copyfileobj(source, target)


if __name__ == "__main__":
    main()
