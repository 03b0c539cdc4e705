"""The pieces make-corpus.py writes the Lottie corpus from: properties, shapes, layers, documents,
the paths and images the files share, and the registry of files (FILES, add)."""
import base64
import io
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
W = H = 200


# Values and properties ---------------------------------------------------------------------------

def st(v):
    """A static property (a property given already, animated or separated, is kept as it is)."""
    if isinstance(v, dict) and ("a" in v or "s" in v):
        return v
    return {"a": 0, "k": v}


def vec(v):
    """A static point or size, or a property given already."""
    return st(v if isinstance(v, dict) else list(v))


def ease(x1=0.33, y1=0.0, x2=0.67, y2=1.0):
    return {"o": {"x": [x1], "y": [y1]}, "i": {"x": [x2], "y": [y2]}}


LINEAR = ease(0, 0, 1, 1)


def kf(*keys, **options):
    """An animated property: keys are (t, value) or (t, value, extra dict); every key but the last gets
    the easing `options.get('e', default ease)` unless its extra dict says otherwise."""
    out = []
    for n, key in enumerate(keys):
        t, value = key[0], key[1]
        item = {"t": t, "s": value if isinstance(value, list) else [value]}
        if n < len(keys) - 1:
            item.update(options.get("e", ease()))
        if len(key) > 2:
            item.update(key[2])
        out.append(item)
    return {"a": 1, "k": out}


def colour(hex_):
    hex_ = hex_.lstrip("#")
    return [round(int(hex_[i:i + 2], 16) / 255, 4) for i in (0, 2, 4)] + [1]


def transform(a=(0, 0), p=(100, 100), s=(100, 100), r=0, o=100, sk=None, sa=None, **animated):
    """A layer transform (ks); animated values given as properties override the statics."""
    ks = {"a": vec(a), "p": vec(p), "s": vec(s), "r": st(r), "o": st(o)}
    if sk is not None or "sk" in animated:
        ks["sk"], ks["sa"] = st(sk or 0), st(sa or 0)
    ks.update(animated)
    return ks


def shape_transform(**kw):
    """A group's transform; "ty" first, as bodymovin writes it (rlottie's parser reads the type
    from the first key and drops a transform whose "ty" comes last)."""
    return {"ty": "tr", **transform(**kw)}


# Shapes ------------------------------------------------------------------------------------------

def group(items, nm="group", **tr):
    return {"ty": "gr", "nm": nm, "it": list(items) + [shape_transform(**{"p": (0, 0), **tr})]}


def rect(p=(0, 0), s=(80, 80), r=0, **an):
    return {"ty": "rc", "nm": "rect", "d": 1, "p": an.get("pp", st(list(p))), "s": an.get("ss", st(list(s))),
            "r": an.get("rr", st(r))}


def ellipse(p=(0, 0), s=(80, 80), **an):
    return {"ty": "el", "nm": "ellipse", "d": 1, "p": an.get("pp", st(list(p))), "s": an.get("ss", st(list(s)))}


def bezier(v, i=None, o=None, c=True):
    zero = [[0, 0] for _ in v]
    return {"c": c, "v": [list(p) for p in v], "i": [list(p) for p in (i or zero)],
            "o": [list(p) for p in (o or zero)]}


def path(shape, nm="path"):
    return {"ty": "sh", "nm": nm, "ks": shape if "a" in shape else st(shape)}


def fill(c="#2f80ed", o=100, r=1):
    return {"ty": "fl", "nm": "fill", "c": st(colour(c)) if isinstance(c, str) else c,
            "o": st(o) if not isinstance(o, dict) else o, "r": r}


def stroke(c="#1b1b1b", w=8, lc=2, lj=2, ml=4, o=100, d=None):
    s = {"ty": "st", "nm": "stroke", "c": st(colour(c)) if isinstance(c, str) else c,
         "o": st(o), "w": st(w) if not isinstance(w, dict) else w, "lc": lc, "lj": lj, "ml": ml}
    if d is not None:
        s["d"] = d
    return s


def dashes(dash, gap, offset):
    return [{"n": "d", "nm": "dash", "v": st(dash)}, {"n": "g", "nm": "gap", "v": st(gap)},
            {"n": "o", "nm": "offset", "v": offset if isinstance(offset, dict) else st(offset)}]


def gradient_stops(stops, alphas=None):
    """Colour stops (offset, '#hex') and optional opacity stops (offset, alpha)."""
    k = []
    for offset, c in stops:
        k += [offset] + colour(c)[:3]
    for offset, a in alphas or []:
        k += [offset, a]
    return {"p": len(stops), "k": st(k)}


def gfill(stops, kind=1, s=(-60, 0), e=(60, 0), alphas=None, h=None, a=None, o=100, r=1):
    g = {"ty": "gf", "nm": "gradient fill", "o": st(o), "r": r, "s": st(list(s)), "e": st(list(e)),
         "t": kind, "g": gradient_stops(stops, alphas)}
    if h is not None:
        g["h"], g["a"] = (h if isinstance(h, dict) else st(h)), st(a or 0)
    return g


def gstroke(stops, kind=1, s=(-60, 0), e=(60, 0), w=12, alphas=None, h=None, a=None):
    g = {"ty": "gs", "nm": "gradient stroke", "o": st(100), "w": st(w), "lc": 2, "lj": 2, "ml": 4,
         "s": st(list(s)), "e": st(list(e)), "t": kind, "g": gradient_stops(stops, alphas)}
    if h is not None:
        g["h"], g["a"] = st(h), st(a or 0)
    return g


def trim(s, e, o=st(0), m=1):
    return {"ty": "tm", "nm": "trim", "s": s if isinstance(s, dict) else st(s),
            "e": e if isinstance(e, dict) else st(e), "o": o, "m": m}


def polystar(sy, pt, p=(0, 0), r=0, orad=70, irad=None, os_=0, is_=0, nm="polystar", **an):
    s = {"ty": "sr", "nm": nm, "d": 1, "sy": sy, "pt": st(pt), "p": st(list(p)), "r": an.get("rr", st(r)),
         "or": an.get("orr", st(orad)), "os": st(os_)}
    if sy == 1:
        s["ir"], s["is"] = st(irad), st(is_)
    return s


# Layers ------------------------------------------------------------------------------------------

def layer(ty, ind, nm, ks=None, ip=0, op=60, **extra):
    # "ddd": 0 first, as bodymovin writes it: rlottie reads a layer without it (or with it after
    # "ks") as 3D and drops its 2D rotation "r" (docs/lottie.md).
    out = {"ddd": 0, "ty": ty, "ind": ind, "nm": nm, "ip": ip, "op": op, "st": 0, "ks": ks or transform()}
    out.update(extra)
    return out


def shape_layer(ind, nm, shapes, ks=None, **extra):
    return layer(4, ind, nm, ks, shapes=shapes, **extra)


def backdrop(ind=99):
    """A light square behind the subject, so transparent and drawn pixels both count."""
    return shape_layer(ind, "backdrop", [group([rect((0, 0), (180, 180), 12), fill("#f2efe6")])])


def doc(layers, nm=None, fr=30, op=60, w=W, h=H, **extra):
    out = {"v": "5.7.0", "ver": 100000, "nm": nm, "ddd": 0, "fr": fr, "ip": 0, "op": op, "w": w, "h": h,
           "layers": layers}
    out.update(extra)
    return out


FILES = {}
# Files that use what bodymovin writes but lottie-spec 1.0 leaves out: validated, and the error
# expected is reported as this note instead of a failure.
BEYOND_SPEC = {"mask-difference.json": "mask mode f (difference) is bodymovin's; lottie-spec 1.0 has n, a, s, i"}


def add(name, document, what):
    if document["nm"] is None:
        document["nm"] = name[:-len(".json")]
    FILES[name] = (document, what)


def png_data_uri(size=48):
    """A small PNG made here: a four-colour checker with a transparent corner, as a data URI."""
    return "data:image/png;base64," + base64.b64encode(checker_png(size)).decode("ascii")


def checker_png(size=48):
    """The checker's PNG bytes."""
    from PIL import Image
    image = Image.new("RGBA", (size, size))
    half = size // 2
    tiles = [(230, 80, 60, 255), (40, 140, 220, 255), (250, 200, 40, 255), (0, 0, 0, 0)]
    for y in range(size):
        for x in range(size):
            image.putpixel((x, y), tiles[(y >= half) * 2 + (x >= half)])
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def spin(period=60):
    return kf((0, 0), (period, 360), e=LINEAR)


def square_path(half=50):
    return bezier([(-half, -half), (half, -half), (half, half), (-half, half)])


def circle_path(radius=50):
    k = 0.5523 * radius
    return bezier([(0, -radius), (radius, 0), (0, radius), (-radius, 0)],
                  i=[(-k, 0), (0, -k), (k, 0), (0, k)], o=[(k, 0), (0, k), (-k, 0), (0, -k)])


def pinched_path(radius=70):
    """Four vertices with concave sides: a four-point star of the same vertex count as a circle."""
    r, k, c = radius, radius * 0.64, radius * 0.14
    return bezier([(0, -r), (r, 0), (0, r), (-r, 0)],
                  i=[(-c, k), (-k, -c), (c, -k), (k, c)], o=[(c, k), (-k, c), (-c, -k), (k, -c)])


def star_path(points=5, outer=60, inner=25):
    v = []
    for n in range(points * 2):
        angle = math.pi * n / points - math.pi / 2
        radius = outer if n % 2 == 0 else inner
        v.append((round(radius * math.cos(angle), 3), round(radius * math.sin(angle), 3)))
    return bezier(v)


def mask(mode, shape, o=100, inv=False, nm="mask", **extra):
    m = {"mode": mode, "nm": nm, "pt": shape if "a" in shape else st(shape), "o": st(o), "inv": inv}
    m.update(extra)
    return m


def subject(ind=2, nm="subject", **extra):
    """A striped subject for masks and mattes: two colours, so mask edges show on both."""
    return shape_layer(ind, nm, [
        group([rect((-40, 0), (80, 160)), fill("#e4572e")], "left"),
        group([rect((40, 0), (80, 160)), fill("#17bebb")], "right"),
    ], **extra)
