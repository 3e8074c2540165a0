// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Cairn",
    products: [
        .executable(name: "cairn", targets: ["cairn"]),
        .library(name: "CairnCore", targets: ["CairnCore"]),
        .library(name: "CairnMerge", targets: ["CairnMerge"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // libgit2 as Debian ships it (libgit2-dev 1.5.1), found through pkg-config.
        .systemLibrary(
            name: "CGit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
        ),
        // git's file formats that Cairn writes itself, in pure Swift (no libgit2): the index,
        // packs and their indexes, loose objects, spliced trees, their hashes.
        .target(
            name: "GitFormat",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // The few libgit2 calls Cairn needs, in safe Swift.
        .target(
            name: "Git", dependencies: ["CGit2", "GitFormat"],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // Documents, paths, canonical JSON: pure Swift, no git.
        .target(name: "CairnMerge"),
        // Fuzz targets for what Cairn reads from others: the parser, paths, fetched trees,
        // schemas and each merge policy (scripts/fuzz.sh runs them under libFuzzer).
        .target(name: "CairnFuzzing", dependencies: ["CairnMerge"]),
        // The store on disk: writes, checkpoints, history, users, locking, sync.
        .target(
            name: "CairnCore",
            dependencies: ["CairnMerge", "Git", "GitFormat", .product(name: "Logging", package: "swift-log")]),
        // SQLite as Debian ships it: the benchmark's peer for reads and writes, never a
        // dependency of Cairn itself.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The command-line tool.
        .executableTarget(
            name: "cairn",
            dependencies: [
                "CairnCore", "CairnMerge",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The library quickstart of the README, compiled and run by the tests.
        .executableTarget(name: "quickstart", dependencies: ["CairnCore"], path: "examples/quickstart"),
        // The benchmarks against git and SQLite (scripts/bench.sh runs them in release mode).
        .executableTarget(
            name: "cairn-bench",
            dependencies: [
                "CairnCore", "CairnMerge", "Git", "GitFormat", "CSQLite", "CairnTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // What every test target shares: temporary folders, running programs, seeded randomness.
        .target(name: "CairnTestSupport", dependencies: ["CairnMerge"], path: "Tests/CairnTestSupport"),
        .testTarget(
            name: "GitFormatTests", dependencies: ["GitFormat", "CairnTestSupport"],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        .testTarget(
            name: "GitTests", dependencies: ["Git", "GitFormat", "CairnTestSupport"],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        .testTarget(
            name: "CairnMergeTests", dependencies: ["CairnMerge", "CairnFuzzing", "CairnTestSupport"],
            // Golden merge cases, read from the source tree.
            exclude: ["Golden"]),
        .testTarget(name: "CairnCoreTests", dependencies: ["CairnCore", "Git", "GitFormat", "CairnTestSupport"]),
        .testTarget(name: "CairnCLITests", dependencies: ["cairn", "quickstart", "CairnCore", "CairnMerge", "CairnTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
