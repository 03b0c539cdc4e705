@preconcurrency import CGL
import Throbber

/// The GL entry points Throbber calls, resolved for one context (CGL's table, filled through
/// OSMesa's or EGL's GetProcAddress).
///
/// The optional entries (the sync objects `FenceSync`, `ClientWaitSync`, `DeleteSync`) are nil
/// where the platform lacks them; callers do without.
typealias GLFunctions = CGL_Functions

extension GLFunctions {
    /// A GL entry point that a platform lacks and Throbber cannot do without.
    struct Missing: Error {
        /// The GL name, e.g. `glDrawArraysInstanced`.
        let name: String
    }

    /// Resolves every entry point through `resolve` (a platform's GetProcAddress).
    ///
    /// - Parameter resolve: the address of a GL function by name, nil where there is none.
    /// - Throws: `Missing` naming the first required entry point `resolve` lacks; an
    ///   optional one missing is left nil.
    init(resolving resolve: (String) -> UnsafeMutableRawPointer?) throws(Missing) {
        typealias Lookup = (String) -> UnsafeMutableRawPointer?
        let table = UnsafeMutablePointer<GLFunctions>.allocate(capacity: 1)
        defer { table.deallocate() }
        let missing: String? = withoutActuallyEscaping(resolve) { resolve in
            var lookup: Lookup = resolve
            return withUnsafeMutablePointer(to: &lookup) { lookup in
                CGL_load(table, { context, name in
                    context!.assumingMemoryBound(to: Lookup.self).pointee(String(cString: name))
                }, lookup).map { String(cString: $0) }
            }
        }
        if let missing { throw Missing(name: missing) }
        self = table.pointee
    }
}
