from abc import ABC, abstractmethod


class Authenticatable(ABC):
    @abstractmethod
    def authenticate(self, user, password):
        ...


class SessionUser(Authenticatable):
    def authenticate(self, user, password):
        return True


class Door:
    def authenticate(self, user, password):
        return False
