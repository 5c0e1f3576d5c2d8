"""The security review's rules as code: each rule walks the syntax tree (``ast``) of a
source file, so a rule cannot be dodged by spelling (a bare ``@st.cache_data``, an alias of
``streamlit``, ``open(path, mode="w")`` on two lines...).

    check_source(text, path) -> list[Finding]      # every broken rule in one file

Rules
-----
cache     every ``st.cache_data`` has ``max_entries`` or ``ttl`` (not None); every
          ``st.cache_resource`` has ``max_entries`` or decorates a loader with no
          arguments (one object per server). Any other use (an alias, a bare call on a
          function, ``from streamlit import cache_data``) is flagged: the review must see it.
html      raw HTML (``unsafe_allow_html=True``, ``st.html``, ``components.html``) only for a
          string built by the one escaping helper module (``lab_ui.widgets.chips``), and inside that module
          every value put into an f-string is ``html.escape``'d or on a reviewed list.
io        no network library is imported, and nothing writes to disk: ``open`` for writing,
          ``Path.write_text``/``write_bytes``, ``np.save*``/``tofile``, ``DataFrame.to_csv(path)``
          and friends, ``json.dump``/``pickle.dump``, file-system changes in ``os``/``shutil``.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

HTML_HELPER = "lab_ui.widgets.chips"                 # the one module allowed to build raw HTML
HTML_HELPER_PATH = "app/lab_ui/widgets/chips.py"
# Values the helper puts into HTML without html.escape, each with the reason it is safe.
HTML_SAFE_VALUES = {
    "cls": "one of two literal class names",
    "colour[t.id]": "a colour from the module's own constant list",
    "t.id": "a token id: an int from the tokenizer",
}
NETWORK_MODULES = {"urllib", "urllib2", "urllib3", "requests", "httpx", "http", "socket", "aiohttp",
                   "ftplib", "smtplib", "telnetlib", "websocket", "websockets", "webbrowser"}
# Parts of those packages that only handle text, never a connection.
TEXT_ONLY_MODULES = {"urllib.parse"}
WRITE_CALLS = {"save", "savez", "savez_compressed", "savetxt", "tofile", "write_text", "write_bytes",
               "to_csv", "to_json", "to_parquet", "to_pickle", "to_excel", "to_feather", "to_hdf",
               "to_html", "to_sql", "to_stata", "to_latex", "to_markdown", "to_xml", "dump",
               "makedirs", "mkdir", "remove", "unlink", "rmdir", "rmtree", "rename", "replace",
               "copy", "copy2", "copyfile", "copytree", "move", "touch", "symlink_to", "mkstemp",
               "mkdtemp", "NamedTemporaryFile", "TemporaryDirectory"}
# DataFrame.to_* without a path returns a string instead of writing (e.g. ``df.to_csv()``).
RETURNS_TEXT_WITHOUT_PATH = {"to_csv", "to_json", "to_html", "to_latex", "to_markdown", "to_xml"}
# ``str.replace`` and ``list.copy`` share names with file operations: flag those names only on
# the modules that write files.
FS_MODULE_ONLY = {"remove", "rename", "replace", "copy", "move", "dump"}
FS_MODULES = {"os", "shutil", "json", "pickle", "marshal"}


@dataclass(frozen=True)
class Finding:
    rule: str
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: [{self.rule}] {self.message}"


def _dotted(node: ast.AST) -> str | None:
    """``st.cache_data`` -> "st.cache_data"; None for anything that is not a dotted name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _is_none(node: ast.expr | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and node.value is None)


class _Checker(ast.NodeVisitor):
    def __init__(self, path: str):
        self.path = path
        self.findings: list[Finding] = []
        self.streamlit = set()         # local names bound to the streamlit module
        self.helper_names = set()      # names imported from the HTML helper module
        self.helper_modules = set()    # local names bound to the HTML helper module itself
        self.seen: set[int] = set()    # cache references already judged (by node id)
        self.fixed_strings: set[str] = set()   # module-level names bound to a plain string literal

    def flag(self, rule: str, node: ast.AST, message: str) -> None:
        self.findings.append(Finding(rule, self.path, getattr(node, "lineno", 0), message))

    # ---- imports: streamlit aliases, the helper, network libraries -------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.name == "streamlit":
                self.streamlit.add(a.asname or "streamlit")
            if a.name == HTML_HELPER:
                self.helper_modules.add(a.asname or a.name)
            if a.name.split(".")[0] in NETWORK_MODULES and a.name not in TEXT_ONLY_MODULES:
                self.flag("io", node, f"imports the network module {a.name}")
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        if mod.split(".")[0] in NETWORK_MODULES and mod not in TEXT_ONLY_MODULES:
            self.flag("io", node, f"imports from the network module {mod}")
        if mod == "streamlit":
            for a in node.names:
                if a.name in ("cache_data", "cache_resource", "html"):
                    self.flag("cache" if a.name.startswith("cache") else "html", node,
                              f"from streamlit import {a.name}: use st.{a.name} so the review sees it")
        if mod == HTML_HELPER:
            self.helper_names.update(a.asname or a.name for a in node.names)
        package, _, module = HTML_HELPER.rpartition(".")
        if mod == package:                                # from lab_ui import chips
            self.helper_modules.update(a.asname or a.name for a in node.names if a.name == module)
        self.generic_visit(node)

    # ---- caches -----------------------------------------------------------------------------
    def _cache_kind(self, node: ast.AST) -> str | None:
        name = _dotted(node)
        if name is None or "." not in name:
            return None
        base, _, attr = name.rpartition(".")
        if attr in ("cache_data", "cache_resource") and (base in self.streamlit or base == "streamlit"):
            return attr
        return None

    def _judge_cache(self, kind: str, call: ast.Call | None, func: ast.AST | None, node: ast.AST) -> None:
        bounds = [] if call is None else [k for k in ("max_entries", "ttl")
                                          if not _is_none(_keyword(call, k))]
        if kind == "cache_data":
            if not bounds:
                self.flag("cache", node, "st.cache_data without max_entries or ttl")
            return
        if "max_entries" in bounds:
            return
        args = getattr(func, "args", None)
        no_args = args is not None and not (args.posonlyargs or args.args or args.vararg
                                            or args.kwonlyargs or args.kwarg)
        if not no_args:
            self.flag("cache", node, "st.cache_resource on a function with arguments needs max_entries")

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for dec in node.decorator_list:
            kind = self._cache_kind(dec)
            if kind:                                   # @st.cache_data (bare)
                self.seen.add(id(dec))
                self._judge_cache(kind, None, node, dec)
            elif isinstance(dec, ast.Call) and self._cache_kind(dec.func):
                self.seen.add(id(dec.func))            # @st.cache_data(...)
                if dec.args:
                    self.flag("cache", dec, "a cache decorator with positional arguments")
                self._judge_cache(self._cache_kind(dec.func), dec, node, dec)
        self.generic_visit(node)

    visit_FunctionDef = _visit_function
    visit_AsyncFunctionDef = _visit_function

    def visit_Call(self, node: ast.Call) -> None:
        kind = self._cache_kind(node.func)
        if kind and id(node.func) not in self.seen:
            self.seen.add(id(node.func))
            if node.args:                              # st.cache_data(f, ...): f's arguments unknown
                func = node.args[0]
                self._judge_cache(kind, node, None if isinstance(func, (ast.Name, ast.Attribute))
                                  else func, node)
            else:                                      # st.cache_data(max_entries=...)(f)
                self._judge_cache(kind, node, None, node)
        self._check_html(node)
        self._check_write(node)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if self._cache_kind(node) and id(node) not in self.seen:
            self.flag("cache", node, f"{_dotted(node)} used other than as a call or decorator")
            self.seen.add(id(node))
        self.generic_visit(node)

    # ---- raw HTML ---------------------------------------------------------------------------
    def _from_helper(self, node: ast.expr | None) -> bool:
        if not isinstance(node, ast.Call):
            return False
        name = _dotted(node.func) or ""
        return name in self.helper_names or name.split(".")[0] in self.helper_modules

    def _check_html(self, node: ast.Call) -> None:
        name = _dotted(node.func) or ""
        unsafe = _keyword(node, "unsafe_allow_html")
        raw = unsafe is not None and not (isinstance(unsafe, ast.Constant) and unsafe.value is False)
        base, _, attr = name.rpartition(".")
        if (attr == "html" and (base in self.streamlit or base.endswith("components.v1")
                                or base == "components")):
            raw = True
        if raw:
            body = node.args[0] if node.args else _keyword(node, "body")
            fixed = isinstance(body, ast.Name) and body.id in self.fixed_strings   # no data in it
            if not self._from_helper(body) and not fixed:
                self.flag("html", node, f"raw HTML in {name or 'a call'} not built by {HTML_HELPER}")

    # ---- network and disk -------------------------------------------------------------------
    def _check_write(self, node: ast.Call) -> None:
        name = _dotted(node.func) or ""
        attr = node.func.attr if isinstance(node.func, ast.Attribute) else name
        if name in ("open", "io.open", "os.open") or attr == "open" and isinstance(node.func, ast.Attribute):
            mode = node.args[1] if len(node.args) > 1 else _keyword(node, "mode")
            if attr == "open" and name not in ("open", "io.open", "os.open"):
                mode = node.args[0] if node.args else _keyword(node, "mode")   # Path.open(mode)
            if mode is not None and not (isinstance(mode, ast.Constant) and isinstance(mode.value, str)
                                         and not set(mode.value) & set("wax+")):
                self.flag("io", node, f"{name or 'open'}(...) with mode that may write")
            return
        if attr not in WRITE_CALLS:
            return
        if attr in FS_MODULE_ONLY and name.split(".")[0] not in FS_MODULES:
            return
        if attr in RETURNS_TEXT_WITHOUT_PATH and not node.args and all(
                kw.arg not in ("path_or_buf", "buf", "path") for kw in node.keywords):
            return                                     # df.to_csv() returns the text
        self.flag("io", node, f"{name or attr}(...) writes to disk")


def _fixed_strings(tree: ast.Module) -> set[str]:
    """Module-level names bound to fixed text: a string constant, or an f-string whose every
    field is a name already fixed (a style sheet built from the module's own colour constants)."""
    fixed: set[str] = set()
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets)):
            continue
        v = node.value
        constant = isinstance(v, ast.Constant) and isinstance(v.value, str)
        built = isinstance(v, ast.JoinedStr) and all(
            isinstance(f.value, ast.Name) and f.value.id in fixed and f.format_spec is None
            for f in v.values if isinstance(f, ast.FormattedValue))
        if constant or built:
            fixed |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return fixed


def check_source(text: str, path: str = "<snippet>") -> list[Finding]:
    """Every broken rule in one file's source text."""
    checker = _Checker(path)
    tree = ast.parse(text, filename=path)
    checker.fixed_strings = _fixed_strings(tree)
    checker.visit(tree)
    if path == HTML_HELPER_PATH:
        checker.findings += _check_helper(text, path)
    return checker.findings


def _check_helper(text: str, path: str) -> list[Finding]:
    """Inside the helper, each value in an f-string is escaped or on the reviewed list."""
    out = []
    tree = ast.parse(text)
    assigned: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)

    def escaped(v: ast.expr) -> bool:
        return isinstance(v, ast.Call) and _dotted(v.func) == "html.escape"

    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue):
            v = node.value
            if escaped(v) or (isinstance(v, ast.Name) and v.id in assigned
                              and all(escaped(a) for a in assigned[v.id])):
                continue
            if ast.unparse(v) in HTML_SAFE_VALUES:
                continue
            out.append(Finding("html", path, node.lineno,
                               f"{ast.unparse(v)} goes into HTML without html.escape"))
    return out


def check_tree(root: Path, folders=("app", "core")) -> list[Finding]:
    """Every broken rule in every .py file under ``root / folder``."""
    findings = []
    for folder in folders:
        for p in sorted((root / folder).rglob("*.py")):
            findings += check_source(p.read_text(encoding="utf-8"), p.relative_to(root).as_posix())
    return findings
