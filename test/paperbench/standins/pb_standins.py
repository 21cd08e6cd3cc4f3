"""Call install() before importing paperbench.judge.utils: it stubs paperbench.infra.alcatraz,
whose functions the judge calls only when a remote computer is given (never in these tests)."""
import sys
import types


def install():
    if "paperbench.infra.alcatraz" in sys.modules:
        return
    stub = types.ModuleType("paperbench.infra.alcatraz")

    def _remote_only(*args, **kwargs):
        raise RuntimeError("paperbench.infra.alcatraz is stubbed in tests")

    for name in (
        "file_exists_on_computer",
        "file_is_symlink_on_computer",
        "get_mtime_on_computer",
        "read_text_on_computer",
        "walk_dir_with_mtimes_on_computer",
    ):
        setattr(stub, name, _remote_only)
    sys.modules["paperbench.infra.alcatraz"] = stub
