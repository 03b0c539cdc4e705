// swift-tools-version: 6.0
import PackageDescription

// Layout follows the data flow (README "How it works"): scene model and timing → draw list → renderers →
// image → encoders. Only ThrobberGL touches GL and only ThrobberPNG touches libpng, libdeflate and
// ISA-L; the core and the CPU renderer build and test with no C library at all.
let package = Package(
    name: "Throbber",
    products: [
        .library(
            name: "Throbber",
            targets: ["Throbber", "ThrobberSceneFile", "ThrobberCPU", "ThrobberGL", "ThrobberPNG", "ThrobberDigest", "ThrobberRender", "ThrobberBatch",
                      "ThrobberBenchmarks", "ThrobberText", "ThrobberInput", "ThrobberLottie"]
        ),
        .executable(name: "throbber", targets: ["throbber"]),
    ],
    targets: [
        // C edges: one shim header each.
        // Headers only: the GL headers and the GL function table, once, which the OSMesa and EGL
        // contexts fill through their GetProcAddress (see Sources/CGL/shim.h).
        .systemLibrary(
            name: "CGL",
            providers: [.apt(["libgl-dev"])]
        ),
        // Headers only: libOSMesa is opened with dlopen at run time (see Sources/CGL/shim.h), so
        // that a machine without it still runs `--backend cpu` and hears which package to install.
        // Declaring `pkgConfig: "osmesa"` here would put `-lOSMesa` on the link line and undo that;
        // scripts/setup checks `pkg-config --exists osmesa` instead.
        .systemLibrary(
            name: "COSMesa",
            providers: [.apt(["libosmesa6-dev"])]
        ),
        // Headers only, opened with dlopen like OSMesa: EGL without a display (GPU or surfaceless).
        .systemLibrary(
            name: "CEGL",
            providers: [.apt(["libegl-dev", "libegl-mesa0"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The fast PNG writers' DEFLATE back ends (see Sources/CPNGWriter): whole-buffer libdeflate
        // and Intel ISA-L's igzip. Run time needs libdeflate0 and libisal2.
        .systemLibrary(
            name: "CDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        .systemLibrary(
            name: "CISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),
        // libwebp for WebP sheet pages (animated WebP goes through ffmpeg's libwebp_anim).
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]
        ),
        // libpng's classic API reports errors with longjmp, which must never cross a Swift frame:
        // these C functions keep every setjmp inside C and return an error code instead.
        .target(name: "CPNGCodec", dependencies: ["CPNG"]),
        // zlib (libpng's own dependency) for adler32_combine, which joins igzip's segments.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Our own PNG container and row filters over libdeflate or igzip, with per-thread state.
        .target(name: "CPNGWriter", dependencies: ["CDeflate", "CISAL", "CZlib"]),
        // HarfBuzz through dlopen (its headers through vendor/, links to libharfbuzz-dev's), so that
        // a machine without it still draws every scene without text.
        .target(name: "CText", cSettings: [.headerSearchPath("vendor")]),
        // sched_getaffinity, a GNU extension that Swift's Glibc module does not declare.
        .target(name: "CSched"),

        // The pure core: scenes, timing, draw lists, images, diffs.
        .target(name: "Throbber"),
        // The scene-file language (docs/scene-files.md): expressions, timing, and a file read,
        // defined, evaluated and lowered to draw lists by stage, each node kind in Nodes/.
        .target(name: "ThrobberSceneFile", dependencies: ["Throbber"]),
        // Lottie (docs/lottie.md): the file and dotLottie archives read with bounds, layers, shapes and
        // keyframes evaluated per frame and lowered to the same draw-list rows, never a second renderer.
        .target(name: "ThrobberLottie", dependencies: ["Throbber", "ThrobberInput", "ThrobberPNG", "CZlib"]),
        .target(name: "ThrobberCPU", dependencies: ["Throbber"]),
        .target(
            name: "ThrobberGL",
            dependencies: ["Throbber", "ThrobberInput", "CGL", "COSMesa", "CEGL"],
            plugins: ["EmbedShaders"]
        ),
        .target(name: "ThrobberPNG", dependencies: ["Throbber", "CPNGCodec", "CPNGWriter", "CZlib"]),
        .target(name: "ThrobberDigest", dependencies: ["CCrypto"]),
        // The one rule every file a run reads is opened by (fonts, scene and job files, PNGs):
        // regular files only unless a kind takes streams, each kind bounded before it is read.
        .target(name: "ThrobberInput", dependencies: ["Throbber"]),
        // Text: fonts by role, shaping by HarfBuzz, line breaking (SPEC §6).
        .target(name: "ThrobberText", dependencies: ["Throbber", "ThrobberInput", "CText"]),
        // The render library: the backends behind one `Renderer`, `auto` and the probing that
        // `info` shows (with the CPUs the process may use: affinity, cgroup quota), the parity matrix.
        .target(name: "ThrobberRender", dependencies: ["Throbber", "ThrobberCPU", "ThrobberGL", "ThrobberText", "CSched"]),
        // The batch library: jobs (model and file reader), outputs and their sinks, the pipeline,
        // manifests and verification. Its file I/O lives here; inputs are opened by ThrobberInput's rule.
        .target(name: "ThrobberBatch", dependencies: ["ThrobberSceneFile", "ThrobberLottie", "Throbber", "ThrobberRender", "ThrobberText", "ThrobberPNG", "ThrobberDigest", "ThrobberInput",
                                                     "CWebP"]),
        // The benchmarks: one type per stage, statistics, reports and baselines.
        .target(
            name: "ThrobberBenchmarks",
            dependencies: ["Throbber", "ThrobberCPU", "ThrobberGL", "ThrobberRender", "ThrobberBatch", "ThrobberPNG", "ThrobberDigest",
                           "ThrobberText", "ThrobberSceneFile"]
        ),
        // The studio (`throbber studio`): a bounded local HTTP server (HTTP/) and the app behind it
        // (Studio/: scenes read again on change, one render thread, exports through the pipeline),
        // serving the page in Page/, compiled in by a plugin.
        .target(
            name: "ThrobberStudio",
            dependencies: ["Throbber", "ThrobberBatch", "ThrobberRender", "ThrobberText", "ThrobberLottie"],
            exclude: ["Page"],
            plugins: ["EmbedStudioPage"]
        ),
        // The command: parses, calls a library, prints; the only place that knows flags and exit codes.
        .executableTarget(
            name: "throbber",
            dependencies: ["Throbber", "ThrobberCPU", "ThrobberGL", "ThrobberPNG", "ThrobberDigest", "ThrobberRender", "ThrobberBatch",
                           "ThrobberBenchmarks", "ThrobberText", "ThrobberLottie", "ThrobberStudio"]
        ),

        // Helpers the test targets share: baselines with a record mode (golden images, help-text
        // snapshots), running the built `throbber`, temporary directories, which GL platforms open, loopback sockets.
        .target(name: "ThrobberTestSupport", dependencies: ["ThrobberSceneFile", "Throbber", "ThrobberPNG", "ThrobberGL"]),

        // Build tool: compiles Shaders/*.glsl into the binary.
        .executableTarget(name: "ShaderEmbedder"),
        .plugin(
            name: "EmbedShaders",
            capability: .buildTool(),
            dependencies: ["ShaderEmbedder"]
        ),
        // Build tool: compiles the studio's page (Sources/ThrobberStudio/Page) into the binary.
        .plugin(
            name: "EmbedStudioPage",
            capability: .buildTool(),
            dependencies: ["ShaderEmbedder"]
        ),

        .testTarget(name: "ThrobberSceneFileTests", dependencies: ["Throbber", "ThrobberSceneFile", "ThrobberCPU", "ThrobberText"]),
        .testTarget(name: "ThrobberLottieTests", dependencies: ["ThrobberLottie", "Throbber", "CZlib"]),
        .testTarget(name: "ThrobberTextTests", dependencies: ["Throbber", "ThrobberDigest", "ThrobberText"]),
        // One test target per library with tests: the core, the CPU renderer, the PNG writers, the
        // render library (with the CPU goldens), the batch library, the benchmarks.
        .testTarget(name: "ThrobberTests", dependencies: ["Throbber", "ThrobberText"]),
        .testTarget(name: "ThrobberCPUTests", dependencies: ["Throbber", "ThrobberCPU", "ThrobberRender", "ThrobberTestSupport", "ThrobberText"]),
        .testTarget(name: "ThrobberPNGTests", dependencies: ["Throbber", "ThrobberBenchmarks", "ThrobberCPU", "ThrobberPNG"]),
        .testTarget(
            name: "ThrobberRenderTests",
            dependencies: ["Throbber", "ThrobberCPU", "ThrobberPNG", "ThrobberRender", "ThrobberSceneFile", "ThrobberTestSupport",
                           "ThrobberText"],
            exclude: ["Goldens"]
        ),
        .testTarget(name: "ThrobberBatchTests", dependencies: ["Throbber", "ThrobberSceneFile", "ThrobberBatch", "ThrobberDigest", "ThrobberRender",
                                                              "ThrobberTestSupport", "ThrobberText"]),
        .testTarget(name: "ThrobberBenchmarksTests", dependencies: ["Throbber", "ThrobberBenchmarks", "ThrobberCPU", "ThrobberRender"]),
        .testTarget(
            name: "ThrobberGLTests",
            dependencies: ["Throbber", "ThrobberSceneFile", "ThrobberCPU", "ThrobberGL", "ThrobberRender", "ThrobberTestSupport", "ThrobberText"]
        ),
        .testTarget(
            name: "ThrobberCLITests",
            // `throbber` is the binary the tests run, not a module they import.
            dependencies: ["throbber", "Throbber", "ThrobberCPU", "ThrobberPNG", "ThrobberBatch", "ThrobberDigest", "ThrobberTestSupport"],
            exclude: ["Snapshots"]
        ),
        .testTarget(name: "ThrobberStudioTests", dependencies: ["ThrobberStudio", "Throbber", "ThrobberBatch", "ThrobberRender", "ThrobberText",
                                                        "ThrobberTestSupport"]),
        // Package.swift itself: each Swift target declares exactly the package modules it imports.
        .testTarget(name: "ThrobberLayoutTests"),
    ],
    swiftLanguageModes: [.v6]
)
