struct Router {
    func route(_ path: String) {
        if path == "/login" {
            _ = handleLogin(path)
        }
    }
}
