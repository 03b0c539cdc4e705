// A small sprite-sheet player for Throbber's browser check (scripts/browser-check), plain JS.
//
// It loads an atlas the way PixiJS v7/v8 do (Assets' spritesheet loader, then the Spritesheet
// class), or a Phaser 3 multiatlas, decodes the page images without premultiplication (raw
// RGBA, exact), and builds every animation frame as PixiJS shows a texture: a transparent
// orig (sourceSize) rectangle with the frame's pixels at its trim (spriteSourceSize) offset.
//
// window.checkSheet(args) builds each frame, shows it on the canvas and compares it with the PNG
// the clip frame it should be; window.playSheet(url, options) just plays it, looping, with the
// frames' durations (open player.html?atlas=URL[&multiatlas=1][&animation=NAME]).
"use strict";

async function fetchJSON(url) {
  const text = new TextDecoder().decode(await fetchBytes(url));
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${url}: not JSON: ${e.message}`);
  }
}

// Raw RGBA of the first frame of an image (PNG or WebP), via WebCodecs ImageDecoder: premultiply
// "none" and no colour conversion keep the stored bytes; copyTo in the frame's own format is a
// plain copy and only the channel order is fixed here.
async function decodeRGBA(url) {
  const lower = url.split("?")[0].toLowerCase();
  const type = lower.endsWith(".webp") ? "image/webp" : lower.endsWith(".gif") ? "image/gif" : "image/png";
  const decoder = new ImageDecoder({data: await fetchBytes(url), type, premultiplyAlpha: "none", colorSpaceConversion: "none"});
  try {
    await decoder.tracks.ready;
    const {image} = await decoder.decode({frameIndex: 0});
    try {
      return await frameToRGBA(image);
    } finally {
      image.close();
    }
  } finally {
    decoder.close();
  }
}

// The textures of one page, as PixiJS's Spritesheet._processFrames makes them (in pixels: its
// division by the resolution, meta.scale, cancels out when drawn at that resolution):
//   frame = floor(frame.x, .y, .w, .h) on the page
//   orig  = sourceSize if trimmed !== false and sourceSize is given, else frame's w×h
//   trim  = (spriteSourceSize.x, .y, frame.w, frame.h) if trimmed !== false and spriteSourceSize
// PixiJS keys textures by the `frames` object's keys; a JSON Array (Phaser, TexturePacker) names
// them by `filename` (PixiJS itself would name them "0", "1", …). Where PixiJS and Phaser would
// draw a frame differently (Phaser trims to spriteSourceSize's w×h and ignores sourceSize when
// untrimmed), the atlas is refused: one file must play the same in both.
function pageTextures(page, entries, errors) {
  const textures = new Map();
  const floor = Math.floor;
  for (const [name, data] of entries) {
    const where = `frame "${name}" (${page.url})`;
    if (!data || !data.frame) { errors.push(`${where} has no "frame" rect`); continue; }
    if (data.rotated) { errors.push(`${where} is rotated: this player (and Throbber) only handle rotated: false`); continue; }
    const rect = data.frame;
    const frame = {x: floor(rect.x), y: floor(rect.y), w: floor(rect.w), h: floor(rect.h)};
    const trimmed = data.trimmed !== false;
    const size = trimmed && data.sourceSize ? data.sourceSize : rect;
    const orig = {w: floor(size.w), h: floor(size.h)};
    const sss = data.spriteSourceSize;
    const trim = trimmed && sss ? {x: floor(sss.x), y: floor(sss.y), w: frame.w, h: frame.h} : {x: 0, y: 0, w: frame.w, h: frame.h};
    if (data.trimmed === true && sss && (floor(sss.w) !== frame.w || floor(sss.h) !== frame.h))
      errors.push(`${where}: spriteSourceSize is ${sss.w}×${sss.h} but frame is ${frame.w}×${frame.h} (PixiJS and Phaser would disagree)`);
    if (data.trimmed === false && data.sourceSize && (floor(data.sourceSize.w) !== frame.w || floor(data.sourceSize.h) !== frame.h))
      errors.push(`${where}: untrimmed but sourceSize ${data.sourceSize.w}×${data.sourceSize.h} is not frame's ${frame.w}×${frame.h}`);
    if (data.trimmed === false && sss && (floor(sss.x) !== 0 || floor(sss.y) !== 0))
      errors.push(`${where}: untrimmed but spriteSourceSize is at ${sss.x},${sss.y}`);
    // A rect outside its page or orig is refused, and such a texture is never drawn.
    let invalid = false;
    if (frame.w <= 0 || frame.h <= 0 || frame.x < 0 || frame.y < 0 ||
        frame.x + frame.w > page.image.width || frame.y + frame.h > page.image.height) {
      errors.push(`${where}: frame ${frame.x},${frame.y} ${frame.w}×${frame.h} is not inside the ${page.image.width}×${page.image.height} page`);
      invalid = true;
    }
    if (trim.x < 0 || trim.y < 0 || trim.x + trim.w > orig.w || trim.y + trim.h > orig.h) {
      errors.push(`${where}: the trimmed ${trim.w}×${trim.h} at ${trim.x},${trim.y} is not inside sourceSize ${orig.w}×${orig.h}`);
      invalid = true;
    }
    textures.set(name, {name, page, frame, orig, trim, duration: data.duration, invalid});
  }
  return textures;
}

function framesOf(data, url, errors) {
  if (Array.isArray(data.frames)) {
    return data.frames.map((f, i) => {
      if (typeof f.filename !== "string") errors.push(`${url}: frames[${i}] has no filename`);
      return [f.filename, f];
    });
  }
  if (data.frames && typeof data.frames === "object") return Object.entries(data.frames);
  errors.push(`${url}: no "frames"`);
  return [];
}

async function loadPage(url, imageName, size, entries, errors) {
  if (typeof imageName !== "string") throw new Error(`${url}: no page image`);
  const imageUrl = new URL(imageName, url).href;
  const page = {url, imageUrl, size, image: await decodeRGBA(imageUrl)};
  if (!size || size.w !== page.image.width || size.h !== page.image.height)
    errors.push(`${url}: size ${size ? `${size.w}×${size.h}` : "missing"} but ${imageName} is ${page.image.width}×${page.image.height}`);
  page.textures = pageTextures(page, entries, errors);
  return page;
}

// The page order for joining pages' `animations`: a page's related_multi_packs names the
// others; the order is the first page's [self, ...related] that lists every other page's packs
// in the same order (Throbber's first page alone lists the others, in index order), else the
// loaded page first.
function pageOrder(pages) {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const candidate = (p) => [p.url, ...p.related.filter((u) => u !== p.url)];
  const isSubsequence = (list, order) => {
    let at = 0;
    for (const u of list) { at = order.indexOf(u, at); if (at < 0) return false; at++; }
    return true;
  };
  for (const p of pages) {
    const order = candidate(p);
    if (order.length === pages.length && order.every((u) => byUrl.has(u)) &&
        pages.every((q) => isSubsequence(q.related.filter((u) => u !== q.url), order)))
      return order.map((u) => byUrl.get(u));
  }
  return pages;
}

// Loads a TexturePacker JSON (Hash or Array) atlas like PixiJS's Assets loader: this page, then
// every page in its meta.related_multi_packs (relative to this JSON), each loaded without its own
// related packs (PixiJS passes ignoreMultiPack: only the loaded page's list counts, so Throbber
// writes it on the first page alone). Animations: the loaded page's meta.animations[name] (whole,
// across pages) when given, as a user reads `sheet.data.meta.animations`; else the pages'
// `animations` joined in page order. PixiJS resolves a page's `animations` against that page's
// textures only, so a name from another page is refused.
async function loadTexturePacker(url, errors) {
  const first = await fetchJSON(url);
  const jsons = [[url, first]];
  const related = first.meta && Array.isArray(first.meta.related_multi_packs) ? first.meta.related_multi_packs : [];
  for (const item of related) {
    if (typeof item !== "string") continue;
    const other = new URL(item, url).href;
    if (other === url || jsons.some(([u]) => u === other)) { errors.push(`${url}: related_multi_packs names ${item} twice or itself`); continue; }
    jsons.push([other, await fetchJSON(other)]);
  }
  const pages = [];
  for (const [pageUrl, data] of jsons) {
    const meta = data.meta || {};
    const page = await loadPage(pageUrl, meta.image, meta.size, framesOf(data, pageUrl, errors), errors);
    page.meta = meta;
    page.animations = data.animations || {};
    page.related = (Array.isArray(meta.related_multi_packs) ? meta.related_multi_packs : [])
      .filter((u) => typeof u === "string").map((u) => new URL(u, pageUrl).href);
    for (const [name, list] of Object.entries(page.animations))
      for (const frameName of list)
        if (!page.textures.has(frameName))
          errors.push(`${pageUrl}: animations["${name}"] names "${frameName}", which is not on this page (PixiJS would get undefined)`);
    pages.push(page);
  }
  // A related page may carry meta.animations too (older sheets put it on every page); it must
  // then say what the loaded page says.
  const wholes = pages.filter((p) => p.meta.animations);
  for (const p of wholes)
    if (JSON.stringify(p.meta.animations) !== JSON.stringify(wholes[0].meta.animations))
      errors.push(`${p.url}: meta.animations differs from ${wholes[0].url}'s`);
  const ordered = pageOrder(pages);
  let animations, source;
  if (pages[0].meta.animations) {
    animations = pages[0].meta.animations;
    source = "meta.animations";
  } else {
    animations = {};
    for (const p of ordered)
      for (const [name, list] of Object.entries(p.animations)) animations[name] = (animations[name] || []).concat(list);
    source = pages.length > 1 ? "the pages' animations, joined" : "animations";
  }
  return {pages: ordered, animations, source, listing: null};
}

// A Phaser 3 multiatlas: {textures: [{image, size, scale, frames: [...]}, ...], meta}. Images
// are relative to the JSON. Plays meta.animations[name] when given, else every frame in listing
// order.
async function loadMultiatlas(url, errors) {
  const data = await fetchJSON(url);
  if (!Array.isArray(data.textures)) throw new Error(`${url}: no "textures" array (not a multiatlas)`);
  const pages = [];
  const listing = [];
  for (const [i, texture] of data.textures.entries()) {
    const frames = Array.isArray(texture.frames) ? texture.frames : [];
    const entries = frames.map((f, n) => {
      if (typeof f.filename !== "string") errors.push(`${url}: textures[${i}].frames[${n}] has no filename`);
      return [f.filename, f];
    });
    const page = await loadPage(url, texture.image, texture.size, entries, errors);
    page.label = `${url}#textures[${i}]`;
    pages.push(page);
    listing.push(...entries.map(([name]) => name));
  }
  const meta = data.meta || {};
  return {pages, animations: meta.animations || {}, source: meta.animations ? "meta.animations" : "listing order", listing};
}

async function loadSheet(url, multiatlas) {
  const errors = [];
  const sheet = multiatlas ? await loadMultiatlas(url, errors) : await loadTexturePacker(url, errors);
  // Names resolve across every loaded page; one name on two pages is ambiguous.
  sheet.textures = new Map();
  for (const page of sheet.pages)
    for (const [name, texture] of page.textures) {
      if (sheet.textures.has(name)) errors.push(`frame "${name}" is on two pages`);
      else sheet.textures.set(name, texture);
    }
  sheet.errors = errors;
  return sheet;
}

// The frame names of the animation to play: `name`, or the only one there is.
function chooseAnimation(sheet, name) {
  const names = Object.keys(sheet.animations);
  if (name) {
    if (!sheet.animations[name]) throw new Error(`no animation "${name}" (there are: ${names.join(", ") || "none"})`);
    return {name, frames: sheet.animations[name]};
  }
  if (names.length === 1) return {name: names[0], frames: sheet.animations[names[0]]};
  if (names.length === 0 && sheet.listing) return {name: null, frames: sheet.listing};
  throw new Error(names.length ? `several animations (${names.join(", ")}): give --animation` : "the atlas has no animations");
}

// One animation frame as PixiJS shows it: orig-sized and transparent, the frame's pixels (and
// nothing around them: extruded edges and padding stay unread) copied to the trim offset.
function composeFrame(texture) {
  const {page, frame, orig, trim} = texture;
  const out = new Uint8Array(orig.w * orig.h * 4);
  const src = page.image.rgba, pageWidth = page.image.width;
  for (let y = 0; y < frame.h; y++) {
    const from = ((frame.y + y) * pageWidth + frame.x) * 4;
    out.set(src.subarray(from, from + frame.w * 4), ((trim.y + y) * orig.w + trim.x) * 4);
  }
  return {width: orig.w, height: orig.h, rgba: out};
}

function show(canvas, image) {
  if (canvas.width !== image.width || canvas.height !== image.height) {
    canvas.width = image.width;
    canvas.height = image.height;
  }
  // putImageData stores the raw values (premultiplying for display); the comparison uses the
  // raw buffer, never a read-back.
  canvas.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(image.rgba.buffer), image.width, image.height), 0, 0);
}

// args: {url, multiatlas, animation, pngs: [PNG URL of the clip frame each animation frame must
// be], clipFrames: [its index], maxDiff, timeoutSeconds}
window.checkSheet = async (args) => {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the check took more than ${args.timeoutSeconds} s`)), args.timeoutSeconds * 1000);
  });
  try {
    return await Promise.race([checkSheetNow(args), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

async function checkSheetNow(args) {
  const canvas = document.getElementById("view");
  const sheet = await loadSheet(args.url, args.multiatlas);
  const result = {pages: sheet.pages.length, textureBytes: 0, source: sheet.source, animation: null,
                  frameCount: 0, durations: [], missingDurations: 0, errors: sheet.errors,
                  maxDiff: 0, badPixels: 0, firstBad: null, frameRate: null, scale: null};
  for (const page of sheet.pages) {
    if (page.size) result.textureBytes += page.size.w * page.size.h * 4;
    if (page.meta && result.frameRate === null && page.meta.frameRate !== undefined) result.frameRate = page.meta.frameRate;
    if (page.meta && result.scale === null && page.meta.scale !== undefined) result.scale = String(page.meta.scale);
  }
  let chosen;
  try {
    chosen = chooseAnimation(sheet, args.animation);
  } catch (e) {
    result.errors.push(e.message);
    return result;
  }
  result.animation = chosen.name;
  result.frameCount = chosen.frames.length;
  const textures = [];
  for (const name of chosen.frames) {
    const texture = sheet.textures.get(name);
    if (!texture) { result.errors.push(`the animation names "${name}", which no page has`); continue; }
    textures.push(texture);
    if (typeof texture.duration === "number") result.durations.push(texture.duration);
    else result.missingDurations++;
  }
  if (textures.length !== chosen.frames.length) return result;
  let pngCache = {url: null, image: null};
  for (let j = 0; j < textures.length && j < args.pngs.length; j++) {
    if (textures[j].invalid) continue;  // already reported
    const got = composeFrame(textures[j]);
    show(canvas, got);
    if (pngCache.url !== args.pngs[j]) pngCache = {url: args.pngs[j], image: await decodeRGBA(args.pngs[j])};
    const want = pngCache.image;
    if (got.width !== want.width || got.height !== want.height) {
      result.errors.push(`animation frame ${j} ("${textures[j].name}") is ${got.width}×${got.height}, its PNG ${want.width}×${want.height}`);
      break;
    }
    const g = got.rgba, w = want.rgba;
    for (let i = 0; i < g.length; i += 4) {
      // Transparent in both counts as equal whatever the colour bytes (invisible).
      if (g[i + 3] === 0 && w[i + 3] === 0) continue;
      const d = Math.max(Math.abs(g[i] - w[i]), Math.abs(g[i + 1] - w[i + 1]), Math.abs(g[i + 2] - w[i + 2]), Math.abs(g[i + 3] - w[i + 3]));
      if (d > result.maxDiff) result.maxDiff = d;
      if (d > args.maxDiff) {
        result.badPixels++;
        if (!result.firstBad) result.firstBad = {frame: j, name: textures[j].name, clipFrame: args.clipFrames[j],
          x: (i / 4) % got.width, y: Math.floor(i / 4 / got.width), got: Array.from(g.subarray(i, i + 4)), want: Array.from(w.subarray(i, i + 4))};
      }
    }
  }
  return result;
}

// Plays the animation on the canvas, looping, each frame for its `duration` (ms).
window.playSheet = async (url, {multiatlas = false, animation = null} = {}) => {
  const canvas = document.getElementById("view");
  const sheet = await loadSheet(url, multiatlas);
  const chosen = chooseAnimation(sheet, animation);
  const frames = chosen.frames.map((name) => sheet.textures.get(name)).filter((t) => t && !t.invalid).map((t) => ({image: composeFrame(t), duration: t.duration || 1000 / 60}));
  const total = frames.reduce((s, f) => s + f.duration, 0);
  const start = performance.now();
  const tick = (now) => {
    let t = (now - start) % total, i = 0;
    while (i < frames.length - 1 && t >= frames[i].duration) t -= frames[i++].duration;
    show(canvas, frames[i].image);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return {frames: frames.length, totalMs: total, errors: sheet.errors};
};
