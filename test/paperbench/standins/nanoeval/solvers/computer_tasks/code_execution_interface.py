"""Stand-in for nanoeval's computer interface (the judge's local path never calls it)."""


class ComputerInterface:
    pass


class ExecutionResult:
    pass
