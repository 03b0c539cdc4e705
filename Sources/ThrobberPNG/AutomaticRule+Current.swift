extension AutomaticRule {
    /// The rule `auto` applies (PROVISIONAL until the sweep's derivation replaces it).
    public static let current = AutomaticRule(steps: [
        Step(192, .chain([Setting("isal", 2)])),
        Step(384, .chain([Setting("libdeflate", 1)])),
        Step(16_384, .chain([Setting("zlib", 4)])),
    ])
}
