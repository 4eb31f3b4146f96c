"""Python policies that fail: the tests check odr-sim's one-line error for each."""


class RaisesInSelect:
    def select_victims(self, view):
        raise ValueError("no victim today")


class RaisesInCreate:
    def __init__(self, **options):
        raise RuntimeError("cannot start")

    def select_victims(self, view):
        return []


class RaisesOnAccess:
    def accessed(self, pack):
        raise KeyError(pack.id)

    def select_victims(self, view):
        return [p.id for p in view.candidates()]


class HidesSelect:
    """The class has select_victims; each instance hides it."""

    def __init__(self, **options):
        self.select_victims = None

    def select_victims(self, view):
        return []


class NumberForStored:
    stored = 3

    def select_victims(self, view):
        return []
