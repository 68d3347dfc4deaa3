@main
struct App {
    static func main() {
        Router().route("/login")
    }
}
