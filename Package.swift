// swift-tools-version:6.1
import PackageDescription

/// OpScope: a live terminal dashboard for Foundation `Operation`s and `OperationQueue`s.
///
/// Data flows one way: OperationBridge -> OperationEvents (values) -> DashboardModel -> views -> terminal.
let package = Package(
    name: "OpScope",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OperationEvents", targets: ["OperationEvents"]),
        .library(name: "EventCoding", targets: ["EventCoding"]),
        .library(name: "OperationBridge", targets: ["OperationBridge"]),
        .library(name: "DashboardModel", targets: ["DashboardModel"]),
        .library(name: "TerminalKit", targets: ["TerminalKit"]),
        .library(name: "DashboardUI", targets: ["DashboardUI"]),
        .library(name: "GraphExport", targets: ["GraphExport"]),
        .library(name: "DashboardSession", targets: ["DashboardSession"]),
        .library(name: "OpScopeAgent", targets: ["OpScopeAgent"]),
        .library(name: "OpScopeRecording", targets: ["OpScopeRecording"]),
        .library(name: "OpScope", targets: ["OpScope"]),
        .library(name: "OpScopeTelemetry", targets: ["OpScopeTelemetry"]),
        .library(name: "OpScopeOTLP", targets: ["OpScopeOTLP"]),
    ],
    traits: [
        // swift-otel and what it needs (HTTP client, TLS, protobuf) take minutes to build: only
        // a build that asks for traces pays for them (`swift build --traits OTLP`).
        .trait(name: "OTLP", description: "OpenTelemetry export (OTLP/HTTP) of traces and metrics, with swift-otel"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The config file (config.toml): a small C++ parser (toml++) under a Swift API.
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // `swift package generate-documentation --target OpScope`: the DocC catalogs (CI builds
        // them with warnings as errors). A plugin only: nothing of it is linked into a product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The event stream: ids, infos, events, commands, the stream state (keyframes), the causal
        // sequencer and the source protocols. No Foundation.
        .target(name: "OperationEvents", dependencies: ["CacheHints"]),
        // The processor's prefetch hint, which Swift does not spell (trimming the history).
        .target(name: "CacheHints"),
        .testTarget(name: "OperationEventsTests", dependencies: ["OperationEvents", "OpScopeTestSupport"]),
        // The one coding of the stream: JSON Lines with a versioned header (recordings, sockets).
        .target(name: "EventCoding", dependencies: ["OperationEvents"]),
        .testTarget(name: "EventCodingTests", dependencies: ["EventCoding", "OperationEvents", "OpScopeTestSupport"]),
        // The only code that touches Operation / OperationQueue state.
        .target(
            name: "OperationBridge",
            dependencies: [
                "OperationEvents",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .testTarget(name: "OperationBridgeTests", dependencies: ["OperationBridge", "OperationEvents", "OpScopeTestSupport"],
                    exclude: ["Support/README.md"]),
        // A pure reducer over events: store, graph and layouts, scheduling order, diagnosis,
        // warnings, statistics, report. Imports no bridge and no view.
        .target(
            name: "DashboardModel",
            dependencies: [
                "OperationEvents",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // Event scripts shared by the model and UI tests.
        .target(name: "OpScopeTestSupport", dependencies: ["DashboardModel", "OperationEvents", "OperationBridge"]),
        .testTarget(name: "DashboardModelTests",
                    dependencies: ["DashboardModel", "OperationEvents", "OperationBridge", "OpScopeTestSupport"]),
        // The dependency graph as DOT or Mermaid text (docs, bug reports). No Foundation.
        .target(name: "GraphExport", dependencies: ["DashboardModel", "OperationEvents"]),
        .testTarget(name: "GraphExportTests", dependencies: ["GraphExport", "DashboardModel", "OperationEvents", "OpScopeTestSupport"]),
        // Cells, styles, buffers, frame diffing, widgets and a test backend: no ncurses in it.
        .target(name: "TerminalKit"),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit"]),
        // Views, key bindings and the screen composer: reads the model, returns commands, draws
        // into TerminalKit buffers. No ncurses, no bridge.
        .target(name: "DashboardUI", dependencies: ["DashboardModel", "OperationEvents", "TerminalKit"]),
        .testTarget(name: "DashboardUITests", dependencies: ["DashboardUI", "DashboardModel", "OperationEvents", "TerminalKit", "OpScopeTestSupport",
                                                             "OpScopeDemos"],
                    // Read from the source tree by path (and re-recorded there), not bundled.
                    exclude: ["__Snapshots__"]),
        // ncursesw (apt: libncurses-dev). Only NcursesBackend imports it.
        .systemLibrary(name: "CNcurses", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        // The terminal: draws TerminalKit buffers with ncurses, decodes keys and the mouse,
        // restores the terminal on quit, signals and errors.
        .target(name: "NcursesBackend", dependencies: ["CNcurses", "TerminalGuard", "TerminalKit"]),
        // Gives the terminal back if the process dies of a fatal signal (C: the handler must be
        // async-signal-safe).
        .target(name: "TerminalGuard"),
        // One dashboard over any event source and any terminal surface: ingest, input → effects,
        // frames. No ncurses, no bridge: tests run whole sessions on the test terminal.
        .target(name: "DashboardSession", dependencies: ["DashboardUI", "DashboardModel", "OperationEvents", "TerminalKit"]),
        .testTarget(name: "DashboardSessionTests",
                    dependencies: ["DashboardSession", "DashboardUI", "DashboardModel", "OperationEvents", "TerminalKit", "OpScopeTestSupport"]),
        // The config file (config.toml): every key in one table, read with TOMLKit, applied over
        // SessionOptions; flags of the command line are applied over it the same way.
        .target(name: "DashboardConfig", dependencies: [
            "DashboardSession", "DashboardUI", "TerminalKit", .product(name: "TOMLKit", package: "TOMLKit"),
        ]),
        .testTarget(name: "DashboardConfigTests",
                    dependencies: ["DashboardConfig", "DashboardSession", "DashboardUI", "DemoLauncher", "OpScopeTestSupport",
                                   .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Serving a program's event stream over a Unix socket to consoles in other processes, and
        // the console's side of it (`opscope attach`): any EventSource, no bridge, no terminal.
        .target(name: "OpScopeAgent", dependencies: ["OperationEvents", "EventCoding"]),
        .testTarget(name: "OpScopeAgentTests",
                    dependencies: ["OpScopeAgent", "OperationEvents", "EventCoding", "OperationBridge", "OpScopeTestSupport"]),
        // Recordings: the recorder (a consumer of any source, writing JSON Lines as it goes), the
        // reader's index, the replay source with its own clock, and the Perfetto trace export.
        .target(name: "OpScopeRecording", dependencies: ["OperationEvents", "EventCoding", "DashboardModel"]),
        .testTarget(name: "OpScopeRecordingTests",
                    dependencies: ["OpScopeRecording", "EventCoding", "OperationEvents", "DashboardModel", "DashboardSession",
                                   "DashboardUI", "TerminalKit", "OpScopeTestSupport"]),
        // The embedding API: run the dashboard in a program's terminal, or get its report. One
        // import gives an embedding program everything its API names.
        .target(name: "OpScope", dependencies: ["OperationBridge", "OperationEvents", "DashboardModel", "DashboardSession",
                                                "TerminalKit", "NcursesBackend", "GraphExport", "OpScopeAgent", "OpScopeRecording", "EventCoding"]),
        // A source's operations and queues as metrics (swift-metrics), served for Prometheus; and as
        // spans (a recording's as an OTLP JSON file).
        .target(name: "OpScopeTelemetry", dependencies: [
            "OperationEvents", "DashboardModel", "EventCoding", "OpScopeRecording",
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        .testTarget(name: "OpScopeTelemetryTests", dependencies: ["OpScopeTelemetry", "OpScopeTestSupport", "OperationEvents", "EventCoding", "DashboardModel"]),
        // Traces (one span per operation) and metrics sent to an OpenTelemetry collector over
        // OTLP/HTTP. Empty unless built with the OTLP trait.
        .target(name: "OpScopeOTLP", dependencies: [
            "OpScopeTelemetry", "OpScopeRecording", "OperationEvents", "DashboardModel",
            .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTLP"])),
            .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["OTLP"])),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["OTLP"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["OTLP"])),
            .product(name: "CoreMetrics", package: "swift-metrics"),
        ]),
        // The built-in workloads (`opscope demo NAME`).
        .target(name: "OpScopeDemos", dependencies: ["OperationBridge", "OperationEvents"], path: "Demos/OpScopeDemos"),
        // Running a demo in the dashboard (shared by opscope and the demos' own programs).
        .target(name: "DemoLauncher", dependencies: [
            "OpScope", "OpScopeDemos", "OpScopeTelemetry", "OpScopeOTLP", "DashboardConfig",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Demos/DemoLauncher"),
        // Each demo as its own program.
        .executableTarget(name: "pipeline", dependencies: ["DemoLauncher"], path: "Demos/pipeline"),
        .executableTarget(name: "serial-async", dependencies: ["DemoLauncher"], path: "Demos/serial-async"),
        .executableTarget(name: "async-right-wrong", dependencies: ["DemoLauncher"], path: "Demos/async-right-wrong"),
        .executableTarget(name: "stuck", dependencies: ["DemoLauncher"], path: "Demos/stuck"),
        .executableTarget(name: "readiness", dependencies: ["DemoLauncher"], path: "Demos/readiness"),
        .executableTarget(name: "priorities", dependencies: ["DemoLauncher"], path: "Demos/priorities"),
        .executableTarget(name: "cancellation", dependencies: ["DemoLauncher"], path: "Demos/cancellation"),
        // The README's embedding example, exactly.
        .executableTarget(name: "embedding-example", dependencies: ["OpScope"], path: "Demos/Embedding"),
        // The opscope command.
        .executableTarget(name: "opscope", dependencies: [
            "OpScope", "OpScopeDemos", "DemoLauncher", "GraphExport", "OpScopeTelemetry", "OpScopeOTLP",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "OpScopeTests", dependencies: ["OpScope", "WorkflowFixture", "OpScopeTestSupport"]),
        // An Operation framework written the way existing ones are (its own queue class, a locked
        // state machine, conditions as hidden dependencies, groups): code OpScope does not own.
        // OpScopeTests watch it tracked and through the adapter API, with every command.
        .target(name: "WorkflowFixture", path: "Tests/Fixtures/Workflow"),
        // The real program in tmux (needs the opscope executable built beside the tests).
        .testTarget(name: "TerminalTests", dependencies: ["opscope", "OpScopeTestSupport"]),
        // Soak and stress runs: the reliability tests run them small, opscope-bench at full size.
        .target(name: "ReliabilityRuns", dependencies: ["OperationBridge", "OperationEvents", "DashboardModel", "DashboardSession",
                                                        "TerminalKit", "OpScopeRecording", "OpScopeAgent"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["ReliabilityRuns", "OperationBridge", "DashboardModel",
                                                             "DashboardUI", "TerminalKit", "OperationEvents", "OpScopeTestSupport",
                                                             "OpScope", "DashboardSession", "GraphExport", "OpScopeRecording"]),
        // Allocator statistics for the memory benchmarks (glibc's mallinfo2 is not in the Glibc module).
        .target(name: "HeapStatistics"),
        // Benchmark programs: `swift run -c release opscope-bench bridge`.
        .executableTarget(
            name: "opscope-bench",
            dependencies: [
                "OpScopeTelemetry",
                "OpScopeOTLP",
                "EventCoding",
                "OperationBridge",
                "OperationEvents",
                "OpScopeRecording",
                "DashboardModel",
                "DashboardUI",
                "TerminalKit",
                "NcursesBackend",
                "ReliabilityRuns",
                "HeapStatistics",
                "OpScopeAgent",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
