protocol Authenticatable {
    func authenticate(user: String, password: String) -> Bool
}

struct Member: Authenticatable {
    func authenticate(user: String, password: String) -> Bool { return true }
}

struct Visitor {
    let name: String
}

extension Visitor: Authenticatable {
    func authenticate(user: String, password: String) -> Bool { return user == name }
}

class Printer {
    func authenticate(user: String, password: String) -> Bool { return false }
}
