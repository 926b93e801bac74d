// swift-tools-version:6.0
import PackageDescription

/// OpScope: a live terminal dashboard for Foundation `Operation`s and `OperationQueue`s.
///
/// Data flows one way: OperationBridge -> OperationEvents (values) -> DashboardModel -> views -> terminal.
let package = Package(
    name: "OpScope",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OperationEvents", targets: ["OperationEvents"]),
        .library(name: "OperationBridge", targets: ["OperationBridge"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Value types shared by the bridge, the model and the front end: ids, events, snapshots, commands.
        .target(name: "OperationEvents"),
        // The only code that touches Operation / OperationQueue state.
        .target(
            name: "OperationBridge",
            dependencies: [
                "OperationEvents",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .testTarget(name: "OperationBridgeTests", dependencies: ["OperationBridge", "OperationEvents"]),
        // Benchmark programs: `swift run -c release opscope-bench bridge`.
        .executableTarget(
            name: "opscope-bench",
            dependencies: [
                "OperationBridge",
                "OperationEvents",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
