# Source: CPMpy repository, examples/flexible_jobshop.py
#   https://github.com/CPMpy/cpmpy (commit 98be9c1aaa08ad3e585ca16c920ed01b4772b47d, v1.0.0)
# Copyright the CPMpy authors. Licensed under the Apache License, Version 2.0
#   (http://www.apache.org/licenses/LICENSE-2.0). Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES
#   OR CONDITIONS OF ANY KIND.
# Changes: the model is wrapped in build(); the solving, visualisation and solver-comparison code is removed.
# Parallel machine scheduling: a set of jobs must be scheduled, each can be run on compatible machines,
# with different duration and energy consumption. Minimize makespan and total energy consumption

import cpmpy as cp
import pandas as pd
import random

SOURCE = "CPMpy examples/flexible_jobshop.py"


def build():
    random.seed(1)
    # --- Data definition ---
    num_jobs = 15
    num_machines = 3
    # Generate some data: [job_id, machine_id, duration, energy]
    data = [[jobid, machid, random.randint(2, 8), random.randint(5, 15)]
            for jobid in range(num_jobs) for machid in range(num_machines)]
    df_data = pd.DataFrame(data, columns=['job_id', 'machine_id', 'duration', 'energy'])
    num_compatible = len(df_data)

    # Compute maximal horizon (sum of longest duration per job)
    horizon = df_data.groupby("job_id")["duration"].max().sum()

    # Decision `start[j]`: integer start time for each job `j`
    start = cp.intvar(0, horizon, shape=num_jobs, name="start")
    # Decision `end[j]`: integer end time for each job `j`
    end = cp.intvar(0, horizon, shape=num_jobs, name="end")
    # Decision `active[c]`: Per compatible job/machine combination `c`, Boolean indicating if it is used
    active = cp.boolvar(shape=num_compatible, name="active")

    model = cp.Model()

    # Mandatory jobs: each job must be assigned to exactly one compatible machine
    for _, job_rows in df_data.groupby("job_id"):
        model += cp.sum(active[job_rows.index]) == 1

    # Machine capacity: each machine can only process one job at a time
    # also enforces Matching duration: the end time of a job is the start time + the duration on its assigned machine
    for _, mach_rows in df_data.groupby("machine_id", sort=True):
        model += cp.NoOverlapOptional(
            start = start[mach_rows["job_id"]],
            end = end[mach_rows["job_id"]],
            duration = mach_rows["duration"].values,
            is_present = active[mach_rows.index],
        )

    # Metric Makespan: end time of the latest job
    makespan = cp.max(end)

    # Metric Total energy: total energy consumed by the machines
    total_energy = cp.sum(active * df_data["energy"])

    # Objective: minimize makespan, and to a lesser extend also total energy consumption
    model.minimize(100 * makespan + total_energy)
    return model, [start, end, active]
