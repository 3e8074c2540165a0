// swift-tools-version:6.0
import PackageDescription

/// libgit2 and the libraries it uses linked into the programs from Debian's static archives
/// (`CAIRN_STATIC_LIBGIT2=1`), as `scripts/install.sh` builds the tool and `scripts/bench.sh`
/// times it: a process then starts without loading and relocating libgit2's shared library and
/// seven it brings (CairnCore.docc, Decisions). Off by default, so that an app
/// building Cairn's libraries gets the shared libgit2 and a manifest without linker flags
/// (SwiftPM refuses a dependency's unsafe flags: the variable is for this package's builds).
let linksLibgit2Statically = Context.environment["CAIRN_STATIC_LIBGIT2"] == "1"

/// The static archives in the order the linker must meet them (each before what it uses), as
/// `pkg-config --static --libs libgit2` lists them on Debian 12, OpenSSL's libcrypto
/// (libssh2's) added.
let libgit2Archives = [
    "git2", "mbedtls", "mbedx509", "mbedcrypto", "http_parser", "ssh2", "crypto",
    "pcre2-8",
].map { "lib\($0).a" }

/// How the programs link libgit2: the shared library (found through pkg-config, below), or
/// the archives above with
/// - GSSAPI (Negotiate authentication), which Debian ships as a shared library only;
/// - `--exclude-libs`: the archives' symbols stay out of the program's dynamic symbol table, so
///   libcurl, loaded later for LFS with the shared OpenSSL it links, binds to its own;
/// - `--wrap` for mbedTLS's two certificate readers, which Sources/CGit2Setup/setup.c
///   intercepts (a program cannot interpose a function of its own archives by name).
let libgit2LinkerSettings: [LinkerSetting] =
    linksLibgit2Statically
    ? libgit2Archives.map { .linkedLibrary(":" + $0) } + [
        .linkedLibrary(":libgssapi_krb5.so.2"),
        .unsafeFlags([
            "-Xlinker", "--exclude-libs=" + libgit2Archives.joined(separator: ":"),
            "-Xlinker", "--wrap=mbedtls_x509_crt_parse_file",
            "-Xlinker", "--wrap=mbedtls_x509_crt_parse_path",
        ]),
    ]
    : []

let package = Package(
    name: "Cairn",
    products: [
        .executable(name: "cairn", targets: ["cairn"]),
        .executable(name: "cairn-web", targets: ["cairn-web"]),
        .executable(name: "cairn-hook", targets: ["cairn-hook"]),
        .executable(name: "cairn-server", targets: ["cairn-server"]),
        .library(name: "CairnCore", targets: ["CairnCore"]),
        .library(name: "CairnFirestore", targets: ["CairnFirestore"]),
        .library(name: "CairnMerge", targets: ["CairnMerge"]),
        .library(name: "CairnMergeLaws", targets: ["CairnMergeLaws"]),
        .library(name: "CairnServer", targets: ["CairnServer"]),
        .library(name: "CairnSimulation", targets: ["CairnSimulation"]),
        .library(name: "CairnTesting", targets: ["CairnTesting"]),
        .library(name: "CairnSchemaSets", targets: ["CairnSchemaSets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // 4.x, which jwt-kit needs; 3.12.3 is the lowest Cairn itself builds with.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // The DocC catalogs built as documentation (`swift package generate-documentation`);
        // CI builds them with warnings treated as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libgit2 as Debian ships it (libgit2-dev 1.5.1), found through pkg-config, which also
        // links its shared library, unless it is linked in (`linksLibgit2Statically`). Cairn
        // builds on Linux with glibc only (Sources/CairnSystem/Syscalls.swift): no other provider.
        .systemLibrary(
            name: "CGit2",
            pkgConfig: linksLibgit2Statically ? nil : "libgit2",
            providers: [.apt(["libgit2-dev"])]
        ),
        // The ground floor: the system calls Cairn makes itself, with one policy for a call a
        // signal interrupts, one `writeAll`, and the one import of the platform's C library
        // (glibc); processes started with posix_spawn (CSpawn).
        .target(name: "CairnSystem", dependencies: ["CSpawn"]),
        // git's file formats that Cairn writes itself, in pure Swift (no libgit2): the index,
        // packs and their indexes, loose objects, spliced trees, their hashes.
        // zlib as Debian ships it (zlib1g-dev): CRC-32 and Adler-32 for the formats below.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "GitFormat", dependencies: ["CairnSystem", "CZlib", .product(name: "Crypto", package: "swift-crypto")]),
        // libgit2's start with the system's CA certificates read at the first connection, not
        // in every process (Sources/CGit2Setup/setup.c).
        .target(
            name: "CGit2Setup", dependencies: ["CGit2"],
            cSettings: linksLibgit2Statically ? [.define("CGIT2_LINKED_STATICALLY")] : []),
        // The few libgit2 calls Cairn needs, in safe Swift.
        .target(
            name: "Git", dependencies: ["CGit2", "CGit2Setup", "GitFormat", "CairnSystem"],
            linkerSettings: libgit2LinkerSettings),
        // libcurl for the HTTP that libgit2 does not do (the LFS client), loaded at the first
        // request rather than linked: the tool starts without it and the libraries it brings.
        // Built without libcurl's header (Sources/CCurl/curl_abi.h holds the numbers it uses,
        // checked against the header where one is installed).
        .target(name: "CCurl"),
        // posix_spawn with every other descriptor closed in the child (glibc's closefrom
        // action, which Swift's Glibc module does not show) and pipes that close on exec.
        .target(name: "CSpawn"),
        // The concurrency runtime's hook for the global executor, set by the server.
        .target(name: "CExecutorHook"),
        // Documents, paths, canonical JSON: pure Swift, no git.
        .target(name: "CairnMerge"),
        // Valid documents and per-policy edits generated from a schema set, and the checker of
        // the laws every merge policy keeps: for tests, simulations, fuzzing and `cairn schema
        // laws`, not for an app's store.
        .target(name: "CairnMergeLaws", dependencies: ["CairnMerge"]),
        // The shipped schema sets as package resources, so an app's tests and the quickstart
        // find them from any folder. The sets stay where the project keeps them, in `schema/`;
        // each folder is copied whole (two sets may both have a user.schema.json). A new set's
        // folder joins the list; a test checks that every folder of schema/ is a resource.
        .target(
            name: "CairnSchemaSets", dependencies: ["CairnCore", "CairnMerge", "CairnSystem"], path: "schema",
            sources: ["SchemaSets.swift"],
            resources: ["bonfire", "bonfire-content", "edumind", "edumind-content", "life-in-uk", "oybc", "remi", "remi-v1"].map {
                .copy($0)
            }),
        // Fuzz targets for what Cairn reads from others: the parser, paths, fetched trees,
        // schemas and each merge policy (scripts/fuzz.sh runs them under libFuzzer).
        .target(name: "CairnFuzzing", dependencies: ["CairnMerge", "CairnMergeLaws"]),
        // The store on disk: writes, checkpoints, history, users, locking, sync; the library
        // apps embed (ProgressStore).
        .target(
            name: "CairnCore",
            dependencies: [
                "CairnMerge", "CairnSystem", "Git", "GitFormat", "CCurl", .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        // Firestore in and out: a Firestore export read into a store, a store written out as
        // one, values mapped as the schema set directs. Only the tool links it.
        .target(
            name: "CairnFirestore",
            dependencies: ["CairnCore", "CairnMerge", "CairnSystem", "Git", .product(name: "Logging", package: "swift-log")]),
        // The server's side: per-user bare repositories and the pre-receive hook.
        .target(name: "CairnServer", dependencies: ["CairnSystem", "CairnCore", "CairnMerge", "Git", "GitFormat"]),
        // ID tokens of the apps' identity providers (Firebase Auth, any OIDC provider),
        // verified with jwt-kit against the provider's key set.
        .target(
            name: "CairnIdentity",
            dependencies: [
                "CairnCore", "CairnMerge", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Seeded devices syncing through one remote, for any schema set.
        .target(
            name: "CairnSimulation",
            dependencies: ["CairnSystem", "CairnCore", "CairnServer", "CairnMerge", "CairnMergeLaws", "Git", "GitFormat"]),
        // Merge stories for any app: devices, a remote, steps and expectations; scenario files,
        // golden case folders and their reports (`cairn test`). No test framework in it.
        .target(
            name: "CairnTesting",
            dependencies: [
                "CairnSystem",
                "CairnCore", "CairnMerge", "CairnSchemaSets", "CairnServer", "Git", "GitFormat",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The history view in the browser (`cairn web`): pages drawn from a store's history,
        // served on 127.0.0.1 by Hummingbird, with every style and plot inline.
        .target(
            name: "CairnWeb",
            dependencies: [
                "CairnCore", "CairnMerge", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                // The request guard reads requests as the HTTP/1.1 decoder gives them, before
                // they become typed requests.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]),
        // Past one machine: users spread over shards by bucket, moved between them with pushes
        // held, and each shard's repositories backed up as git bundles into an object store
        // (through rclone) and restored from there.
        .target(
            name: "CairnCluster",
            dependencies: [
                "CairnSystem",
                "CairnCore", "CairnMerge", "CairnServer", "Git", "GitFormat",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // The server in one process (`cairn server run`): ID tokens checked, users' repositories
        // made on their first sync, git's own `git http-backend` run for the protocol, bounded;
        // one log line per request, metrics for Prometheus. And the same check of tokens as
        // an endpoint for nginx's `auth_request` (`cairn server auth`).
        .target(
            name: "CairnFront",
            dependencies: [
                "CairnSystem",
                "CairnCore", "CairnMerge", "CairnServer", "CairnIdentity", "CairnCluster",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]),
        // SQLite as Debian ships it: the benchmark's peer for reads and writes, never a
        // dependency of Cairn itself.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // glibc's allocator settings, which the tool's processes set at their start
        // (Sources/CairnCommandLine/ProcessMemory.swift).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // What the tool's two programs share: the environment, read in one place, and the
        // options of the history view; the allocator settings of the tool's processes.
        .target(
            name: "CairnCommandLine",
            dependencies: [
                "CairnSystem",
                "CairnCore", "CairnMerge", "CairnSchemaSets", "CMalloc", .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The command-line tool.
        .executableTarget(
            name: "cairn",
            dependencies: [
                "CairnSystem",
                "CairnCore", "CairnMerge", "CairnServer", "CairnSimulation", "CairnTesting", "CairnSchemaSets", "CairnCommandLine",
                "CairnFirestore", "CairnMergeLaws",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The hooks of a repository of `cairn server init`, a program of its own that the hook
        // scripts start on every push: it parses no command tree, and starts sooner than the tool.
        .executableTarget(
            name: "cairn-hook",
            dependencies: [
                "CairnSystem",
                "CairnCommandLine", "CairnCore", "CairnServer", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The history view's server, a program of its own that `cairn web` runs, so the web
        // server's libraries are loaded only when the view is asked for, never at each start of
        // the tool.
        .executableTarget(
            name: "cairn-web",
            dependencies: [
                "CairnSystem",
                "CairnWeb", "CairnCore", "CairnCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The server of `cairn server run` and `cairn server auth`, a program of its own that
        // the tool becomes, so that the tool starts without the server's libraries.
        .executableTarget(
            name: "cairn-server",
            dependencies: [
                "CairnSystem",
                "CairnFront", "CairnIdentity", "CairnCluster", "CairnCore", "CairnMerge", "CairnCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                "CExecutorHook",
            ]),
        // The library quickstart of the GettingStarted article (CairnCore.docc), compiled and run by the tests.
        .executableTarget(
            name: "quickstart", dependencies: ["CairnCore", "CairnMerge", "CairnServer", "CairnSchemaSets"], path: "examples/quickstart"),
        // The benchmarks against git and SQLite (scripts/bench.sh runs them in release mode).
        .executableTarget(
            name: "cairn-bench",
            dependencies: [
                "CairnCore", "CairnMerge", "CairnMergeLaws", "CairnServer", "CairnSimulation", "CairnIdentity", "CairnCluster", "Git",
                "GitFormat",
                "CSQLite",
                "CairnTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // What every test target shares: temporary folders, running programs, seeded randomness.
        .target(name: "CairnTestSupport", dependencies: ["CairnMerge"], path: "Tests/CairnTestSupport"),
        // What the tests that run the built tool share: the tool in a temporary home, devices
        // syncing through bare repositories, refusals checked (with swift-testing's
        // expectations, so apart from what the benchmarks link).
        // And `cairn verify` run as an invariant over every history a test made.
        .target(
            name: "CairnToolTestSupport", dependencies: ["CairnTestSupport", "CairnMerge", "CairnCore"], path: "Tests/CairnToolTestSupport"),
        .testTarget(name: "GitFormatTests", dependencies: ["GitFormat", "CZlib", "CairnMerge", "CairnTestSupport"]),
        .testTarget(name: "GitTests", dependencies: ["Git", "GitFormat", "CGit2", "CairnMerge", "CairnTestSupport"]),
        .testTarget(
            name: "CairnMergeTests", dependencies: ["CairnMerge", "CairnMergeLaws", "CairnFuzzing", "CairnTestSupport"],
            // Golden merge cases, read from the source tree.
            exclude: ["Golden"]),
        .testTarget(
            name: "CairnFirestoreTests",
            dependencies: ["CairnCore", "CairnFirestore", "CairnMerge", "CairnMergeLaws", "CairnTestSupport", "CairnToolTestSupport"]),
        .testTarget(
            name: "CairnCoreTests",
            dependencies: [
                "CairnSystem",
                "CairnCore", "CairnMerge", "CairnMergeLaws", "CairnServer", "Git", "GitFormat", "CairnTestSupport", "CairnToolTestSupport",
                // AES-GCM-SIV checked against RFC 8452, under the document cipher.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "CairnServerTests", dependencies: ["CairnToolTestSupport", "cairn", "CairnCore", "CairnServer", "CairnTestSupport"]),
        // The server in one process, as devices and plain git use it: tokens, provisioning,
        // bounds, logs, metrics, nginx in front.
        // Shards behind HAProxy, moves between them, backups into SeaweedFS and the drill.
        .testTarget(
            name: "CairnClusterTests",
            dependencies: ["CairnCluster", "CairnToolTestSupport", "CairnTestSupport", "CairnCore", "cairn", "cairn-server"]),
        .testTarget(
            name: "CairnFrontTests",
            dependencies: [
                "CairnSystem",
                "CairnToolTestSupport", "CairnTestSupport", "CairnCore", "CairnMerge", "CairnFront", "cairn", "cairn-server",
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(
            name: "CairnIdentityTests",
            dependencies: ["CairnIdentity", "CairnCore", "CairnTestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "CairnSimulationTests",
            dependencies: ["CairnSimulation", "CairnCore", "CairnMerge", "CairnTestSupport", "CairnToolTestSupport"]),
        // Merge stories told through CairnTesting's Swift API, scenario files and golden cases.
        .testTarget(
            name: "CairnTestingTests",
            dependencies: ["CairnTesting", "CairnCore", "CairnMerge", "CairnSchemaSets", "CairnTestSupport", "CairnToolTestSupport"]),
        // The built tool as a user runs it on one device: transcripts, bad input, the quickstart.
        .testTarget(
            name: "CairnCLITests",
            dependencies: [
                "CairnToolTestSupport", "cairn", "cairn-web", "quickstart", "CairnCommandLine", "CairnCore", "CairnMerge",
                "CairnSchemaSets",
                "CairnTestSupport", "CMalloc", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Several devices, one remote, real servers and injected faults.
        .testTarget(
            name: "CairnScenarioTests", dependencies: ["CairnToolTestSupport", "cairn", "CairnCore", "CairnMerge", "CairnTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every file imports the modules whose members it uses.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
