mod auth;
mod web;

fn main() {
    web::router::route("/login");
}
