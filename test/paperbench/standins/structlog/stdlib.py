"""Stand-in for structlog.stdlib."""


def get_logger(*args, **kwargs):
    from . import _Logger

    return _Logger()


class BoundLogger:
    pass
