// The project's one UTF-8 validator (RFC 3629), and text shortened without
// cutting a character: pure functions, no I/O, so that the engine, the
// reader and the report writers can all use them.
#ifndef CANASTA_CORE_UTF8_H_
#define CANASTA_CORE_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

namespace canasta {

// Length of the well-formed UTF-8 sequence that starts at s[i] (1 for an
// ASCII byte), or 0 when none does: overlong forms, surrogates, code points
// above U+10FFFF and sequences cut short are not well formed.
inline size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // bounds of the byte after the lead
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (n > s.size() - i) return 0;
  const auto c1 = static_cast<unsigned char>(s[i + 1]);
  if (c1 < lo || c1 > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  return n;
}

// Offset of the first byte of `text` that does not start a well-formed
// sequence, or (when stop_at_nul) that is a NUL; npos when there is none.
// *nul (may be null) tells which of the two was found.
inline size_t FindInvalidUtf8(std::string_view text, bool stop_at_nul = false,
                              bool* nul = nullptr) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHighs = 0x8080808080808080ull;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  if (nul != nullptr) *nul = false;
  size_t i = 0;
  while (i < n) {
    // Most text is ASCII without NUL: 8 bytes at a time.
    if (n - i >= 8) {
      uint64_t word;
      std::memcpy(&word, s + i, 8);
      const uint64_t zero_byte = stop_at_nul ? (word - kOnes) & ~word & kHighs : 0;
      if (((word & kHighs) | zero_byte) == 0) {
        i += 8;
        continue;
      }
    }
    if (s[i] < 0x80) {
      if (s[i] == 0 && stop_at_nul) {
        if (nul != nullptr) *nul = true;
        return i;
      }
      ++i;
      continue;
    }
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

inline bool IsValidUtf8(std::string_view text) {
  return FindInvalidUtf8(text) == std::string_view::npos;
}

// `text` as valid UTF-8: each byte that begins no well-formed sequence
// becomes U+FFFD.
inline std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    } else {
      out.append(text.data() + i, n);
      i += n;
    }
  }
  return out;
}

// Code points a terminal acts on or that reorder or split a line: C0, DEL,
// C1 (U+0080-U+009F), the line and paragraph separators, bidi controls.
inline bool IsControlCodePoint(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 || cp == 0x200e ||
         cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

// Appends `text` with control characters escaped, so that outside text (a
// log's name, a hook's string, what a ruleset logs) is one line and cannot
// send escape sequences to a terminal: C0 and DEL as \xNN (\n, \r, \t),
// other controls as \uNNNN, and a byte that is not valid UTF-8 (a raw 0x9b
// is CSI to an 8-bit terminal) as \xNN.
inline void AppendPrintable(std::string* out, std::string_view text) {
  char buf[12];
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8SequenceLength(text, i);
    const auto c = static_cast<unsigned char>(text[i]);
    char32_t cp = c;
    if (n > 1) {
      cp = n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
      for (size_t k = 1; k < n; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
    }
    if (n > 0 && !IsControlCodePoint(cp)) {
      out->append(text.data() + i, n);
      i += n;
      continue;
    }
    if (n <= 1) {
      switch (c) {
        case '\n':
          out->append("\\n");
          break;
        case '\r':
          out->append("\\r");
          break;
        case '\t':
          out->append("\\t");
          break;
        default:
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out->append(buf);
      }
      i += 1;
      continue;
    }
    std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(cp));
    out->append(buf);
    i += n;
  }
}

// `text` itself when it holds at most `max_bytes`; else its first bytes, cut
// before a character that would cross `max_bytes` (never inside one), then
// " ... (N bytes in all)". For text from outside (a ruleset's reason, a Lua
// error) that goes into a finding: a report stays readable, and bounded.
inline std::string ShortenText(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t cut = 0;
  while (cut < max_bytes) {
    const size_t n = Utf8SequenceLength(text, cut);
    if (cut + (n == 0 ? 1 : n) > max_bytes) break;
    cut += n == 0 ? 1 : n;
  }
  return std::string(text.substr(0, cut)) + " ... (" + std::to_string(text.size()) +
         " bytes in all)";
}

}  // namespace canasta

#endif  // CANASTA_CORE_UTF8_H_
