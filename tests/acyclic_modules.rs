//! No import cycle between the modules of any crate in the workspace.
//!
//! Every crate root of every package (`src/lib.rs`, `src/main.rs`, and in `src/bin`, `tests`,
//! `benches` and `examples` each `*.rs` and each `*/main.rs`) is parsed with `syn`, its `mod`
//! declarations followed to their files, and each module (a file, or an inline `mod` such as
//! `mod tests`) becomes a node. A module depends on another when its code names one of the
//! other's items: a `use` declaration, or any path in its code (types, expressions, patterns,
//! `impl` headers, and the paths inside macro invocations) that starts with `crate::`, `super::`,
//! `self::`, a child module or a name the module imported.
//! Each path is resolved to the module that *defines* the item, following re-exports
//! (`pub use self::error::Exit` in `cli/mod.rs` makes `crate::cli::Exit` a use of `cli/error.rs`,
//! not of `cli/mod.rs`) and glob imports. Declaring a child (`mod child;`) is ownership, not use, so
//! a parent that only declares and re-exports its children depends on none of them through that.
//!
//! The test fails on every strongly connected component of more than one module, printing the
//! modules, a shortest cycle through them and one path that makes each edge, unless the component
//! is one of [`KNOWN`]: cycles in crates another change owns, listed so that a new cycle still
//! fails. `cargo test --test acyclic_modules -- --nocapture` also prints how many crate roots and
//! modules it read.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// Import cycles that exist today, each one strongly connected component as the sorted names of
/// its modules. The test fails on any other component, and on an entry that no longer exists, so
/// that the list only shrinks. None remain: where a module's children used what it defined
/// (csp-search's `order/`, `branch/`, `value/` and `knuth/`), the shared items moved to a leaf
/// module of their own, and csp-core's store no longer names the model or the constraints it runs
/// (building and propagation live in `store/build.rs` and `store/propagation.rs`).
const KNOWN: &[&[&str]] = &[];

/// A module: a file or an inline `mod` block.
#[derive(Debug)]
struct Module {
    /// Where it is, for messages: the file, with `::name` for each inline module inside it.
    name: String,
    /// The enclosing module (none for the crate root).
    parent: Option<usize>,
    /// Child modules by name.
    children: BTreeMap<String, usize>,
    /// Items defined here, by name (types, functions, traits, constants, macros, …).
    defined: BTreeSet<String>,
    /// Names brought in by `use`: the name and the path as written (resolved from this module).
    imports: BTreeMap<String, Vec<String>>,
    /// `use path::*`: the paths as written.
    globs: Vec<Vec<String>>,
    /// Every path this module's code names, as written, with the text shown in messages.
    references: Vec<Vec<String>>,
}

/// One crate's modules; the first is the root.
#[derive(Debug, Default)]
struct Crate {
    root: PathBuf,
    modules: Vec<Module>,
    /// `macro_rules!` macros by name, and the module that defines them: `#[macro_export]` puts a
    /// macro at the crate root, and textual scoping makes one visible by its bare name.
    macros: BTreeMap<String, usize>,
}

/// What a path names: a module, an item defined in a module, or something outside the crate
/// (another crate's item, re-exported here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resolved {
    Module(usize),
    Item(usize),
    External,
}

impl Resolved {
    /// The module this crate's code depends on through the path, if any.
    fn module(self) -> Option<usize> {
        match self {
            Resolved::Module(m) | Resolved::Item(m) => Some(m),
            Resolved::External => None,
        }
    }
}

/// The deepest chain of re-exports followed before a path is given up as unresolved.
const MAX_DEPTH: usize = 32;

impl Crate {
    /// Loads the crate whose root file is `root`, following every `mod` declaration.
    fn load(root: &Path, workspace: &Path) -> Result<Crate, String> {
        let mut krate = Crate {
            root: root.to_owned(),
            ..Crate::default()
        };
        let dir = root
            .parent()
            .expect("a root file has a directory")
            .to_owned();
        krate.load_file(root, dir, None, workspace)?;
        Ok(krate)
    }

    fn load_file(
        &mut self,
        file: &Path,
        children_dir: PathBuf,
        parent: Option<usize>,
        workspace: &Path,
    ) -> Result<usize, String> {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let parsed = syn::parse_file(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let shown = file
            .strip_prefix(workspace)
            .unwrap_or(file)
            .display()
            .to_string();
        self.load_items(&parsed.items, shown, children_dir, parent, workspace)
    }

    fn load_items(
        &mut self,
        items: &[syn::Item],
        name: String,
        children_dir: PathBuf,
        parent: Option<usize>,
        workspace: &Path,
    ) -> Result<usize, String> {
        let id = self.modules.len();
        self.modules.push(Module {
            name: name.clone(),
            parent,
            children: BTreeMap::new(),
            defined: BTreeSet::new(),
            imports: BTreeMap::new(),
            globs: Vec::new(),
            references: Vec::new(),
        });
        let mut collector = Collector::default();
        for item in items {
            match item {
                syn::Item::Mod(module) => {
                    let child_name = module.ident.to_string();
                    let child = match &module.content {
                        Some((_, inner)) => self.load_items(
                            inner,
                            format!("{name}::{child_name}"),
                            children_dir.join(&child_name),
                            Some(id),
                            workspace,
                        )?,
                        None => {
                            let flat = children_dir.join(format!("{child_name}.rs"));
                            let nested = children_dir.join(&child_name).join("mod.rs");
                            let (file, grandchildren) = if flat.exists() {
                                (flat, children_dir.join(&child_name))
                            } else if nested.exists() {
                                (nested, children_dir.join(&child_name))
                            } else {
                                return Err(format!(
                                    "{name}: no file for `mod {child_name};` in {}",
                                    children_dir.display()
                                ));
                            };
                            self.load_file(&file, grandchildren, Some(id), workspace)?
                        }
                    };
                    self.modules[id].children.insert(child_name, child);
                }
                syn::Item::Use(declaration) => {
                    let mut paths = Vec::new();
                    flatten_use(&declaration.tree, &mut Vec::new(), &mut paths);
                    for (path, binding) in paths {
                        match binding {
                            Binding::Name(bound) => {
                                self.modules[id].imports.insert(bound, path.clone());
                            }
                            Binding::Glob => self.modules[id].globs.push(path.clone()),
                            Binding::Anonymous => {}
                        }
                        self.modules[id].references.push(path);
                    }
                }
                other => {
                    if let Some(defined) = defined_name(other) {
                        self.modules[id].defined.insert(defined.clone());
                        if let syn::Item::Macro(_) = other {
                            self.macros.entry(defined).or_insert(id);
                        }
                    }
                    collector.visit_item(other);
                }
            }
        }
        self.modules[id].references.extend(collector.paths);
        Ok(id)
    }

    /// What `name` is in module `module`: a child, an item defined there, an import, or something
    /// a glob import brings in.
    fn lookup(&self, module: usize, name: &str, depth: usize) -> Option<Resolved> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m = &self.modules[module];
        if let Some(&child) = m.children.get(name) {
            return Some(Resolved::Module(child));
        }
        if m.defined.contains(name) {
            return Some(Resolved::Item(module));
        }
        if let Some(path) = m.imports.get(name) {
            return Some(
                self.resolve(module, path, depth + 1)
                    .unwrap_or(Resolved::External),
            );
        }
        if m.parent.is_none()
            && let Some(&defining) = self.macros.get(name)
        {
            return Some(Resolved::Item(defining));
        }
        for glob in &m.globs {
            if let Some(Resolved::Module(target)) = self.resolve(module, glob, depth + 1)
                && target != module
                && let Some(found) = self.lookup(target, name, depth + 1)
            {
                return Some(found);
            }
        }
        None
    }

    /// The module a path written in `from` names, or defines the item it names; `None` for paths
    /// outside the crate (other crates, the standard library, local variables).
    fn resolve(&self, from: usize, path: &[String], depth: usize) -> Option<Resolved> {
        let (first, rest) = path.split_first()?;
        let (start, rest) = match first.as_str() {
            "crate" => (0, rest),
            "self" => (from, rest),
            "super" => {
                let mut module = self.modules[from].parent?;
                let mut rest = rest;
                while let Some(("super", tail)) = rest.split_first().map(|(s, t)| (s.as_str(), t)) {
                    module = self.modules[module].parent?;
                    rest = tail;
                }
                (module, rest)
            }
            "Self" => return None,
            _ => (from, path),
        };
        let mut current = Resolved::Module(start);
        for (i, segment) in rest.iter().enumerate() {
            let Resolved::Module(module) = current else {
                // An item's associated items and variants live with it.
                break;
            };
            match self.lookup(module, segment, depth + 1) {
                Some(found) => current = found,
                // The first segment of a relative path that names nothing here is not this
                // crate's; a later one is an associated item or a variant of what came before.
                None if i == 0 && start == from && first != "self" => return None,
                None => return Some(Resolved::Item(module)),
            }
        }
        Some(current)
    }

    /// The edges: for each module, the modules it uses, each with the first path that says so.
    fn edges(&self) -> Vec<BTreeMap<usize, String>> {
        let mut edges = vec![BTreeMap::new(); self.modules.len()];
        for (id, module) in self.modules.iter().enumerate() {
            for path in &module.references {
                let target = match self.resolve(id, path, 0) {
                    Some(found) => match found.module() {
                        Some(module) => module,
                        None => continue,
                    },
                    // A bare macro name, visible by textual scope.
                    None if path.len() == 1 => match self.macros.get(&path[0]) {
                        Some(&defining) => defining,
                        None => continue,
                    },
                    None => continue,
                };
                if target != id {
                    edges[id].entry(target).or_insert_with(|| path.join("::"));
                }
            }
        }
        edges
    }
}

/// How a `use` path binds a name.
enum Binding {
    Name(String),
    Glob,
    Anonymous,
}

/// Every path of a `use` tree, with the name it binds.
fn flatten_use(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Binding)>,
) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            flatten_use(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(name) => {
            let ident = name.ident.to_string();
            if ident == "self" {
                let bound = prefix.last().cloned().unwrap_or_default();
                out.push((prefix.clone(), Binding::Name(bound)));
            } else {
                let mut path = prefix.clone();
                path.push(ident.clone());
                out.push((path, Binding::Name(ident)));
            }
        }
        syn::UseTree::Rename(rename) => {
            let mut path = prefix.clone();
            let ident = rename.ident.to_string();
            if ident != "self" {
                path.push(ident);
            }
            let bound = rename.rename.to_string();
            let binding = if bound == "_" {
                Binding::Anonymous
            } else {
                Binding::Name(bound)
            };
            out.push((path, binding));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), Binding::Glob)),
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                flatten_use(tree, prefix, out);
            }
        }
    }
}

/// The name an item defines in its module's namespace, if any.
fn defined_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::ExternCrate(i) => i.rename.as_ref().map_or(&i.ident, |(_, r)| r),
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::TraitAlias(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// Gathers the paths an item's code names, macro bodies included.
#[derive(Default)]
struct Collector {
    paths: Vec<Vec<String>>,
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            self.paths.push(
                path.segments
                    .iter()
                    .map(|segment| segment.ident.to_string())
                    .collect(),
            );
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, declaration: &'ast syn::ItemUse) {
        // A `use` inside a function body: its paths are uses of this module's code.
        let mut paths = Vec::new();
        flatten_use(&declaration.tree, &mut Vec::new(), &mut paths);
        self.paths.extend(paths.into_iter().map(|(path, _)| path));
    }

    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {
        // Modules inside function bodies are not followed (the workspace has none).
    }

    fn visit_vis_restricted(&mut self, _: &'ast syn::VisRestricted) {
        // `pub(in path)` says who may see an item, not what it uses.
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        macro_paths(mac.tokens.clone(), &mut self.paths);
    }
}

/// The paths in a macro's tokens: identifiers joined by `::`, in nested groups too.
fn macro_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(group) => {
                macro_paths(group.stream(), out);
                i += 1;
            }
            TokenTree::Ident(ident) => {
                let preceded_by_colons =
                    i >= 1 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
                let mut path = vec![ident.to_string()];
                let mut j = i + 1;
                while j + 2 < tokens.len() + 1
                    && matches!(tokens.get(j), Some(TokenTree::Punct(p)) if p.as_char() == ':')
                    && matches!(tokens.get(j + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
                {
                    match tokens.get(j + 2) {
                        Some(TokenTree::Ident(next)) => {
                            path.push(next.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                }
                if !preceded_by_colons && path.len() > 1 {
                    out.push(path);
                }
                i = j;
            }
            _ => i += 1,
        }
    }
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn cycles(edges: &[BTreeMap<usize, String>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a [BTreeMap<usize, String>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        components: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in s.edges[v].keys() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(index) if s.on_stack[w] => s.low[v] = s.low[v].min(index),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.components.push(component);
            }
        }
    }
    let n = edges.len();
    let mut state = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for v in 0..n {
        if state.index[v].is_none() {
            visit(&mut state, v);
        }
    }
    state.components
}

/// One cycle through a component, as a list of modules from `start` back to it (breadth first,
/// so it is a shortest one).
fn one_cycle(edges: &[BTreeMap<usize, String>], component: &[usize]) -> Vec<usize> {
    let inside: BTreeSet<usize> = component.iter().copied().collect();
    let start = *component.iter().min().expect("a component has modules");
    let mut previous: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in edges[v].keys().filter(|w| inside.contains(w)) {
            if w == start {
                let mut path = vec![start, v];
                let mut at = v;
                while at != start {
                    at = previous[&at];
                    path.push(at);
                }
                path.reverse();
                return path;
            }
            if let std::collections::btree_map::Entry::Vacant(entry) = previous.entry(w) {
                entry.insert(v);
                queue.push_back(w);
            }
        }
    }
    vec![start]
}

/// Every crate root of every package in the workspace.
fn crate_roots(workspace: &Path) -> Vec<PathBuf> {
    let mut packages = vec![workspace.to_owned()];
    for entry in std::fs::read_dir(workspace)
        .expect("the workspace is readable")
        .flatten()
    {
        let path = entry.path();
        if path.join("Cargo.toml").is_file() {
            packages.push(path);
        }
    }
    let mut roots = Vec::new();
    for package in packages {
        for file in ["src/lib.rs", "src/main.rs"] {
            let path = package.join(file);
            if path.is_file() {
                roots.push(path);
            }
        }
        for dir in ["src/bin", "tests", "benches", "examples"] {
            let Ok(entries) = std::fs::read_dir(package.join(dir)) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "rs") {
                    roots.push(path);
                } else if path.join("main.rs").is_file() {
                    // A target of several files, as Cargo finds it: `src/bin/fzn-csp/main.rs`,
                    // `examples/mzn-bench/main.rs` (`tests/common/` has none: it is no target).
                    roots.push(path.join("main.rs"));
                }
            }
        }
    }
    roots.sort();
    roots
}

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut report = String::new();
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut modules = 0;
    let roots = crate_roots(workspace);
    for root in &roots {
        let krate = Crate::load(root, workspace).unwrap_or_else(|e| panic!("{e}"));
        modules += krate.modules.len();
        let edges = krate.edges();
        for component in cycles(&edges) {
            let mut files: Vec<String> = component
                .iter()
                .map(|&m| krate.modules[m].name.clone())
                .collect();
            files.sort();
            let known = KNOWN
                .iter()
                .any(|k| k.iter().copied().eq(files.iter().map(String::as_str)));
            found.insert(files.clone());
            if known {
                continue;
            }
            let _ = writeln!(
                report,
                "\ncycle in the crate of {}: {}",
                krate
                    .root
                    .strip_prefix(workspace)
                    .unwrap_or(&krate.root)
                    .display(),
                files.join(", ")
            );
            let cycle = one_cycle(&edges, &component);
            let names: Vec<&str> = cycle
                .iter()
                .map(|&m| krate.modules[m].name.as_str())
                .collect();
            let _ = writeln!(report, "  a cycle: {}", names.join(" -> "));
            let inside: BTreeSet<usize> = component.iter().copied().collect();
            for &from in &component {
                for (to, path) in edges[from].iter().filter(|(to, _)| inside.contains(to)) {
                    let _ = writeln!(
                        report,
                        "  {} uses {} (`{path}`)",
                        krate.modules[from].name, krate.modules[*to].name,
                    );
                }
            }
        }
    }
    for known in KNOWN {
        let known: Vec<String> = known.iter().map(|s| (*s).to_owned()).collect();
        if !found.contains(&known) {
            let _ = writeln!(
                report,
                "\nthe known cycle {} is gone: remove it from KNOWN",
                known.join(", ")
            );
        }
    }
    println!(
        "{} crate roots, {modules} modules: {} cycle(s), {} known",
        roots.len(),
        found.len(),
        KNOWN.len()
    );
    assert!(report.is_empty(), "{report}");
}
