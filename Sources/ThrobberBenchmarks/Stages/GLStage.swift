import ThrobberGL

/// What every GL stage holds: the renderer it times, the backend its rows name, and the case
/// whose frames it draws. Each stage is a final subclass adding its stage, ceiling and `run`.
class GLStage {
    let backend: String
    let gl: GLRenderer
    let bench: BenchCase

    /// The stage on `gl`, reported as `backend`.
    init(_ gl: GLRenderer, backend: String, _ bench: BenchCase) {
        self.gl = gl
        self.backend = backend
        self.bench = bench
    }
}
