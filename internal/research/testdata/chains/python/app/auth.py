def authenticate(user, password):
    return bool(user) and bool(password)
