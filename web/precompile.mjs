// Wheels with their modules compiled by the page's own Python, at build time
// (tools/build_site.py): node precompile.mjs IN OUT, run from the build's npm folder.
//
// Each .py gets a .pyc beside it (__pycache__, "unchecked-hash": valid whatever the file's
// time once unpacked), so the page imports pytest, hypothesis and the kata without
// compiling them first: a few seconds less before the first verdict.  The sources stay
// (tracebacks, and pytest reads its tests' sources).  Not compiled: test modules and
// conftest files, which pytest compiles itself (rewriting their asserts), and pygments,
// which a run without colours never imports.
import { loadPyodide } from "pyodide";

const [input, output] = process.argv.slice(2);
const pyodide = await loadPyodide();
pyodide.mountNodeFS("/in", input);
pyodide.mountNodeFS("/out", output);
pyodide.runPython(`
import importlib.util, os, posixpath, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

SITE = "/lib/python%d.%d/site-packages/" % sys.version_info[:2]
TAG = sys.implementation.cache_tag

def compiled(name):
    base = posixpath.basename(name)
    return (
        name.endswith(".py")
        and not (base.startswith("test_") or base == "conftest.py")
        and not name.startswith("pygments/")
    )

for wheel in sorted(os.listdir("/in")):
    if not wheel.endswith(".whl"):
        continue
    with zipfile.ZipFile("/in/" + wheel) as source, zipfile.ZipFile(
        "/out/" + wheel, "w", zipfile.ZIP_DEFLATED
    ) as target:
        record, added = None, []
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                record = (info, data)
                continue
            target.writestr(info, data)
            if not compiled(info.filename):
                continue
            try:
                code = compile(data, SITE + info.filename, "exec", dont_inherit=True)
            except SyntaxError:
                continue
            folder, base = posixpath.split(info.filename)
            pyc = posixpath.join(folder, "__pycache__", base[:-3] + "." + TAG + ".pyc")
            target.writestr(pyc, bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), False)))
            added.append(pyc)
        info, data = record
        lines = data.decode().rstrip("\\n").split("\\n") + [pyc + ",," for pyc in added]
        target.writestr(info, "\\n".join(lines) + "\\n")
`);
