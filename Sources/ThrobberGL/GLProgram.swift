@preconcurrency import CGL
import Throbber

/// A linked GL program and its uniform locations, looked up once.
struct GLProgram {
    let id: GLuint
    private var locations: [String: GLint] = [:]

    /// Compiles and links `vertex` + `fragment` from the library, with `defines` (`#define NAME`
    /// lines right after each shader's `#version`).
    ///
    /// - Throws: a backend-failure error carrying the driver's log and the shader's file name.
    init(_ gl: GLFunctions, library: ShaderLibrary, vertex: String, fragment: String, defines: [String] = [],
         uniforms: [String]) throws {
        func source(_ name: String) throws -> String {
            var text = try library.source(name)
            if !defines.isEmpty, let endOfVersion = text.firstIndex(of: "\n") {
                // `#line 2` keeps the driver's line numbers those of the file.
                text.insert(contentsOf: defines.map { "#define \($0)\n" }.joined() + "#line 2\n", at: text.index(after: endOfVersion))
            }
            return text
        }
        let vs = try GLProgram.compile(gl, GLenum(GL_VERTEX_SHADER), name: vertex, source: source(vertex))
        defer { gl.DeleteShader(vs) }
        let fs = try GLProgram.compile(gl, GLenum(GL_FRAGMENT_SHADER), name: fragment, source: source(fragment))
        defer { gl.DeleteShader(fs) }
        let program = gl.CreateProgram()
        gl.AttachShader(program, vs)
        gl.AttachShader(program, fs)
        gl.LinkProgram(program)
        var status: GLint = 0
        gl.GetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        guard status != 0 else {
            let log = GLProgram.log(gl, program, getiv: gl.GetProgramiv, getLog: gl.GetProgramInfoLog)
            gl.DeleteProgram(program)
            throw ThrobberError("shaders \(vertex) + \(fragment) (\(library.origin)) failed to link: \(log)",
                                kind: .backendFailure)
        }
        id = program
        for name in uniforms {
            locations[name] = gl.GetUniformLocation(program, name)
        }
    }

    /// The location of a uniform named at creation (−1 when the driver optimised it away).
    subscript(_ name: String) -> GLint { locations[name] ?? -1 }

    /// Makes `alias` name the same uniform as `name`.
    mutating func alias(_ alias: String, to name: String) { locations[alias] = self[name] }

    private static func compile(_ gl: GLFunctions, _ type: GLenum, name: String, source: String) throws -> GLuint {
        let shader = gl.CreateShader(type)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            gl.ShaderSource(shader, 1, &pointer, nil)
        }
        gl.CompileShader(shader)
        var status: GLint = 0
        gl.GetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &status)
        guard status != 0 else {
            let log = GLProgram.log(gl, shader, getiv: gl.GetShaderiv, getLog: gl.GetShaderInfoLog)
            gl.DeleteShader(shader)
            throw ThrobberError("shader \(name) failed to compile (source 0 = \(name), 1 = common.glsl): \(log)",
                                kind: .backendFailure)
        }
        return shader
    }

    /// The info log of a shader or program, on one line.
    private static func log(
        _ gl: GLFunctions, _ object: GLuint,
        getiv: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
        getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void
    ) -> String {
        var length: GLint = 0
        getiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        var buffer = [GLchar](repeating: 0, count: Int(max(length, 1)) + 1)
        getLog(object, GLsizei(buffer.count), nil, &buffer)
        let text = String(nulTerminated: buffer)
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
