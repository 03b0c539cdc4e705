// swift-tools-version: 6.0
import PackageDescription

// Throbber used as a library: this package depends on the repository two levels up by path and
// uses its "Throbber" product (docs/library.md).
let package = Package(
    name: "ThrobberLibraryExample",
    dependencies: [
        // `name:` because a path dependency is otherwise known by its directory's name, which is
        // the clone's (`throbber`, `main` …) rather than "Throbber".
        .package(name: "Throbber", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "example",
            dependencies: [.product(name: "Throbber", package: "Throbber")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
