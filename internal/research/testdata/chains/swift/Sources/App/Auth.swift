func authenticate(user: String, password: String) -> Bool {
    return !user.isEmpty && !password.isEmpty
}
