"""
Stand-ins for the third-party modules PaperBench imports that are not installed here (the studio's
test of its reproduction exports, test/paperbench/read_repro_export.py). Importing this module
adds an import finder, ahead of the others, that answers each name of `STOOD_IN` with a module
whose every attribute is a permissive class: a base class, a decorator that changes nothing, a
callable. Only what PaperBench imports at module level touches them; the code under test
(`ReproductionMetadata.from_dict`, `Judge.read_repro_files_content`, drain3) is PaperBench's own.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types


class _StandInMeta(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _stand_in(name)

    def __call__(cls, *args, **kwargs):
        # Used as a decorator (`@chz.chz`, `@override`): the decorated thing, unchanged.
        if len(args) == 1 and not kwargs and (isinstance(args[0], type) or callable(args[0])):
            return args[0]
        return super().__call__()


def _pass_through(self, *args, **kwargs):
    # An instance called (`@tenacity.retry(...)` then applied): a decorated function unchanged.
    if len(args) == 1 and not kwargs and callable(args[0]):
        return args[0]
    return _stand_in("result")()


def _stand_in(name):
    return _StandInMeta(name, (), {"__init__": lambda self, *a, **k: None, "__getattr__": lambda self, n: _stand_in(n), "__call__": _pass_through})


class _StandInModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        value = _stand_in(name)
        setattr(self, name, value)
        return value


# PaperBench's imports that are not installed here (their top-level names): nothing it runs on the
# way to `ReproductionMetadata.from_dict` and `Judge.read_repro_files_content` uses them. The
# second set is stood in for only where it is not installed (numpy, PyYAML, docker: on some hosts).
ALWAYS = {"openai", "structlog", "dotenv", "chz", "alcatraz", "nanoeval", "nanoeval_alcatraz", "preparedness_turn_completer", "blobfile", "tenacity", "tiktoken", "unidecode"}
IF_MISSING = {"numpy", "yaml", "docker"}
STOOD_IN = ALWAYS | {name for name in IF_MISSING if importlib.util.find_spec(name) is None}


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] not in STOOD_IN:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        module = _StandInModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


# First: these names are always this permissive stand-in, even where the parity test's narrower
# stand-ins of the same name (this folder's `openai/`, `tiktoken/`, …, on the same PYTHONPATH) or a
# real package would be found; IF_MISSING names are in STOOD_IN only where nothing else imports them.
sys.meta_path.insert(0, _Finder())
