func handleLogin(_ path: String) -> Bool {
    return authenticate(user: "guest", password: "secret")
}
