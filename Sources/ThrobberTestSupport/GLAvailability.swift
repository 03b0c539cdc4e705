import Foundation
import Throbber
import ThrobberGL

/// Whether a GL platform opens here, and why not: suites that need it are skipped with the
/// reason (library missing, no device) instead of failing.
public struct GLAvailability: Sendable {
    /// Whether a renderer on the platform opened.
    public let available: Bool
    /// Why not, or that it is: the text a skipped suite shows.
    public let reason: String

    /// Opens (and closes) a renderer on `platform` once.
    public init(_ platform: GLPlatform) {
        do {
            _ = try GLRenderer(platform: platform)
            (available, reason) = (true, "\(platform) is available")
        } catch {
            (available, reason) = (false, "\(platform) is not available here: \((error as? ThrobberError)?.message ?? "\(error)")")
        }
    }

    /// OSMesa, probed once per test process.
    public static let osmesa = GLAvailability(.osmesa)
    /// EGL without a display (surfaceless), probed once per test process.
    public static let eglSurfaceless = GLAvailability(.eglSurfaceless)
}

/// EGL's surfaceless platform.
public enum EGLAvailability {
    /// Whether it opens here.
    public static var available: Bool { GLAvailability.eglSurfaceless.available }
    /// Why not, or that it does.
    public static var reason: String { GLAvailability.eglSurfaceless.reason }
}

