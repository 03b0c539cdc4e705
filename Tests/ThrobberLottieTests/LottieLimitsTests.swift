import Testing
@testable import ThrobberLottie

/// The bounds are what docs/limits.md says and keep every product of them inside `Int`.
struct LottieLimitsTests {
    @Test func boundsKeepProductsInsideInt() {
        let (product, overflow) = LottieLimits.imagePixels.multipliedReportingOverflow(by: 4 * LottieLimits.layers)
        #expect(!overflow && product > 0)
        #expect(LottieLimits.largestJSON <= LottieLimits.largestArchive)
    }
}
