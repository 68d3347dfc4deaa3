// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "AcmeSwift",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "AcmeSwift", targets: ["AcmeSwift"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-nio", "2.0.0"..<"3.0.0"),
        // .package(url: "https://github.com/commented/out.git", from: "1.0.0"),
        .package(path: "SwiftLocal"),
    ],
    targets: [
        .target(name: "AcmeSwift", dependencies: [
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    ]
)
