"""Policies the package's tests use."""


class Raises:
    def select_victims(self, view):
        return [1 // 0]
