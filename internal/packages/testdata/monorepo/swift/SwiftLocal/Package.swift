// swift-tools-version:5.9
import PackageDescription

let package = Package(name: "SwiftLocal", targets: [.target(name: "SwiftLocal")])
