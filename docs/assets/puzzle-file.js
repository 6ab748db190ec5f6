/* Cellula: puzzle files in the browser (issue #70, the analysis board).
 * - text(data): the canonical text of a puzzle file, the same layout and the same characters as
 *   solver/io/writer.py puzzle_text (a test compares the two on every shipped puzzle);
 * - read(text): the data of a puzzle file written in that layout or in the shipped files' own
 *   (block mappings, one-line {...} and [...], quoted and plain values, >- texts, comments); what
 *   this small reader cannot read is said, and the text is still solved as it is (the solver's own
 *   loader reads it and says what is wrong);
 * - encode(text) / decode(fragment): a position in a link, "#puzzle=" and the text deflated and
 *   base64url-encoded; decode checks every step and says which one failed.
 * window.CellulaPuzzleFile; no other global. */
(function () {
  "use strict";
  var FIELD_ORDER = ["id", "title", "story", "edition", "board", "players", "grade", "rounds", "flasks", "start", "hand",
    "row", "deck", "events", "occupied", "grey_flasks", "goal_markers", "goals", "opponents", "cards",
    "antibodies", "virus_rolls", "objective", "seat", "first_player", "marker_seat", "laureates_seats",
    "epigenetic", "board_override", "expected", "notes", "rulings"];
  var TEXT_FIELDS = { title: 1, story: 1, notes: 1 };
  var BLOCK_LISTS = { cards: 1, goals: 1 };
  var BARE = /^(?=[a-z0-9_-]*[a-z])[a-z0-9][a-z0-9_-]*$/;
  var NOT_BARE = /^(?:[0-9][0-9_]*e[0-9]+|0[box].*|null|true|false|yes|no|on|off|y|n)$/;

  // JSON's escapes, as Python's json.dumps(ensure_ascii=False) writes them.
  function quoted(s) {
    return '"' + s.replace(/[\\"\u0000-\u001f\u007f]/g, function (c) {
      var named = { "\\": "\\\\", '"': '\\"', "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
      return named[c] || (c === "\u007f" ? c : "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4));
    }) + '"';
  }
  function scalar(v) {
    if (v === null || v === undefined) return "null";
    if (v === true || v === false) return String(v);
    if (typeof v === "number") return String(v);
    var s = String(v);
    return BARE.test(s) && !NOT_BARE.test(s) ? s : quoted(s);
  }
  function key(k) {
    return /^[1-9][0-9]*$/.test(String(k)) ? String(k) : scalar(k);
  }
  function flow(v) {
    if (Array.isArray(v)) return "[" + v.map(flow).join(", ") + "]";
    if (v !== null && typeof v === "object")
      return "{" + Object.keys(v).map(function (k) { return key(k) + ": " + flow(v[k]); }).join(", ") + "}";
    return scalar(v);
  }
  function text(data) {
    var lines = [];
    var keys = FIELD_ORDER.filter(function (k) { return Object.prototype.hasOwnProperty.call(data, k); })
      .concat(Object.keys(data).filter(function (k) { return FIELD_ORDER.indexOf(k) < 0; }));
    keys.forEach(function (k) {
      var v = data[k];
      if (TEXT_FIELDS[k] && v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length) {
        lines.push(k + ":");
        Object.keys(v).forEach(function (lang) { lines.push("  " + key(lang) + ": " + scalar(v[lang])); });
      } else if (BLOCK_LISTS[k] && Array.isArray(v) && v.length) {
        lines.push(k + ":");
        v.forEach(function (item) { lines.push("  - " + flow(item)); });
      } else {
        lines.push(key(k) + ": " + flow(v));
      }
    });
    return lines.join("\n") + "\n";
  }

  // ---- reading -------------------------------------------------------------------------------
  function ReadError(line, message) { this.line = line; this.message = message; }

  function plain(s) {
    if (s === "" || s === "~" || s === "null") return null;
    if (s === "true") return true;
    if (s === "false") return false;
    if (/^-?[0-9]+$/.test(s)) return parseInt(s, 10);
    return s;
  }
  // One value written on one line: {...}, [...], "...", '...' or plain.
  function parseFlow(src, line) {
    var i = 0;
    function space() { while (i < src.length && src[i] === " ") i++; }
    function fail(what) { throw new ReadError(line, what + " at column " + (i + 1)); }
    function value(inFlow) {
      space();
      var c = src[i];
      if (c === "{") {
        i++; var obj = {};
        space();
        if (src[i] === "}") { i++; return obj; }
        for (;;) {
          var k = value(true);
          space();
          if (src[i] !== ":") fail("expected ':'");
          i++;
          obj[String(k)] = value(true);
          space();
          if (src[i] === ",") { i++; continue; }
          if (src[i] === "}") { i++; return obj; }
          fail("expected ',' or '}'");
        }
      }
      if (c === "[") {
        i++; var arr = [];
        space();
        if (src[i] === "]") { i++; return arr; }
        for (;;) {
          arr.push(value(true));
          space();
          if (src[i] === ",") { i++; continue; }
          if (src[i] === "]") { i++; return arr; }
          fail("expected ',' or ']'");
        }
      }
      if (c === '"') {
        var end = i + 1;
        while (end < src.length && src[end] !== '"') end += src[end] === "\\" ? 2 : 1;
        if (end >= src.length) fail("unclosed quote");
        var s = src.slice(i, end + 1);
        i = end + 1;
        try { return JSON.parse(s); } catch (e) { fail("unreadable quoted text"); }
      }
      if (c === "'") {
        var out = "";
        i++;
        for (;;) {
          if (i >= src.length) fail("unclosed quote");
          if (src[i] === "'") { if (src[i + 1] === "'") { out += "'"; i += 2; continue; } i++; return out; }
          out += src[i++];
        }
      }
      var start = i;
      var stop = inFlow ? /[,\]}]/ : /$^/;
      while (i < src.length && !stop.test(src[i]) && !(src[i] === ":" && (src[i + 1] === " " || i + 1 === src.length || (inFlow && /[,\]}]/.test(src[i + 1]))))) i++;
      return plain(src.slice(start, i).trim());
    }
    var v = value(false);
    space();
    if (i < src.length) fail("unexpected text");
    return v;
  }
  function stripComment(line) {
    var q = null;
    for (var i = 0; i < line.length; i++) {
      var c = line[i];
      if (q) { if (c === q) q = null; else if (c === "\\" && q === '"') i++; }
      else if (c === '"' || c === "'") q = c;
      else if (c === "#" && (i === 0 || line[i - 1] === " ")) return line.slice(0, i);
    }
    return line.replace(/\s+$/, "");
  }
  function read(source) {
    var raw = String(source).replace(/\r\n?/g, "\n").replace(/^\ufeff/, "").split("\n");
    var lines = [];
    raw.forEach(function (l, n) {
      if (/^ *\t/.test(l)) throw new ReadError(n + 1, "a tab in the indentation");
      lines.push({ n: n + 1, indent: l.length - l.replace(/^ +/, "").length, raw: l, text: stripComment(l).trim() });
    });
    var pos = 0;
    // A one-line value that opens more brackets than it closes goes on over the next lines.
    function depth(t) {
      var d = 0, q = null;
      for (var i = 0; i < t.length; i++) {
        var c = t[i];
        if (q) { if (c === q) q = null; else if (c === "\\" && q === '"') i++; }
        else if (c === '"' || c === "'") q = c;
        else if (c === "[" || c === "{") d++;
        else if (c === "]" || c === "}") d--;
      }
      return d;
    }
    function gather(t) {
      while (/^[\[{]/.test(t) && depth(t) > 0 && pos < lines.length) { t += " " + lines[pos].text; pos++; }
      return t;
    }
    function skip() { while (pos < lines.length && !lines[pos].text) pos++; }
    function blockScalar(style, indent) {
      var parts = [], own = null;
      while (pos < lines.length && (!lines[pos].raw.trim() || lines[pos].indent > indent)) {
        var l = lines[pos];
        if (l.raw.trim()) { if (own === null) own = l.indent; parts.push(l.raw.slice(own)); } else parts.push("");
        pos++;
      }
      while (parts.length && parts[parts.length - 1] === "") parts.pop();
      var joined = style.charAt(0) === "|" ? parts.join("\n")
        : parts.reduce(function (acc, p) { return acc === null ? p : (p === "" ? acc + "\n" : (/\n$/.test(acc) || acc === "" ? acc + p : acc + " " + p)); }, null) || "";
      return style.slice(-1) === "-" ? joined : joined + "\n";
    }
    function node(indent) {
      skip();
      if (pos >= lines.length) return null;
      var first = lines[pos];
      if (first.indent < indent) return null;
      if (/^- |^-$/.test(first.text)) {
        var list = [], at = first.indent;
        while (pos < lines.length) {
          skip();
          if (pos >= lines.length || lines[pos].indent !== at || !/^- |^-$/.test(lines[pos].text)) break;
          var l = lines[pos], rest = l.text.slice(1).trim();
          pos++;
          list.push(rest ? item(rest, l) : node(at + 1));
        }
        return list;
      }
      var map = {}, mat = first.indent;
      while (pos < lines.length) {
        skip();
        if (pos >= lines.length) break;
        var m = lines[pos];
        if (m.indent < mat) break;
        if (m.indent > mat) throw new ReadError(m.n, "unexpected indentation");
        var found = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:{}\[\]"'#][^:]*?):(?: +(.*))?$/.exec(m.text);
        if (!found) throw new ReadError(m.n, "expected 'key: value'");
        var k = found[1].charAt(0) === '"' || found[1].charAt(0) === "'" ? parseFlow(found[1], m.n) : found[1].trim();
        if (Object.prototype.hasOwnProperty.call(map, k)) throw new ReadError(m.n, "the key '" + k + "' twice");
        pos++;
        var v = found[2];
        if (v === undefined || v === "") map[k] = node(mat + 1);
        else if (/^[>|][-+]?$/.test(v)) map[k] = blockScalar(v, mat);
        else map[k] = parseFlow(gather(v), m.n);
      }
      return map;
    }
    function item(rest, l) {
      // "- {flow}" or "- plain", or "- key: value" opening a mapping
      if (/^[\[{"']/.test(rest) || !/: |:$/.test(rest)) return parseFlow(gather(rest), l.n);
      var at = l.indent + 2;
      lines.splice(pos, 0, { n: l.n, indent: at, raw: new Array(at + 1).join(" ") + rest, text: rest });
      return node(at);
    }
    var data = node(0);
    skip();
    if (pos < lines.length) throw new ReadError(lines[pos].n, "unexpected indentation");
    if (!data || typeof data !== "object" || Array.isArray(data)) throw new ReadError(1, "expected a mapping of puzzle fields");
    return data;
  }

  // ---- links -----------------------------------------------------------------------------------
  var PREFIX = "puzzle=", MAX_TEXT = 65536;
  function toBase64Url(bytes) {
    var bin = "";
    for (var i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function fromBase64Url(s) {
    if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error("base64");
    var bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }
  function pipe(bytes, stream) {
    return new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer()
      .then(function (b) { return new Uint8Array(b); });
  }
  function encode(source) {
    return pipe(new TextEncoder().encode(source), new CompressionStream("deflate-raw"))
      .then(function (bytes) { return PREFIX + toBase64Url(bytes); });
  }
  // The text a link's fragment holds; rejects with err.step: "prefix", "base64", "deflate", "size", "utf8".
  function decode(fragment) {
    var f = String(fragment || "").replace(/^#/, "");
    function fail(step) { var e = new Error(step); e.step = step; return Promise.reject(e); }
    if (f.indexOf(PREFIX) !== 0) return fail("prefix");
    var bytes;
    try { bytes = fromBase64Url(f.slice(PREFIX.length)); } catch (e) { return fail("base64"); }
    if (bytes.length > MAX_TEXT) return fail("size");
    return pipe(bytes, new DecompressionStream("deflate-raw")).then(function (out) {
      if (out.length > MAX_TEXT) throw Object.assign(new Error("size"), { step: "size" });
      try { return new TextDecoder("utf-8", { fatal: true }).decode(out); }
      catch (e) { throw Object.assign(new Error("utf8"), { step: "utf8" }); }
    }, function () { throw Object.assign(new Error("deflate"), { step: "deflate" }); });
  }

  window.CellulaPuzzleFile = { text: text, read: read, encode: encode, decode: decode, ReadError: ReadError,
                               PREFIX: PREFIX };
})();
