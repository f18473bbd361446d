#include "scripting/lua_bytecode.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <lua.hpp>
#include <string>

namespace canasta {

namespace {

// Lua 5.4's opcodes used here (lopcodes.h, "ORDER OP"); the self-check
// confirms them against this build's compiler.
enum : int {
  kOpMove = 0,
  kOpLoadI = 1,
  kOpLoadF = 2,
  kOpLoadFalse = 5,
  kOpLFalseSkip = 6,
  kOpLoadTrue = 7,
  kOpLoadNil = 8,
  kOpGetField = 14,
  kOpNot = 51,
  kOpEqK = 60,
  kOpEqI = 61,
  kOpLtI = 62,
  kOpLeI = 63,
  kOpGtI = 64,
  kOpGeI = 65,
  kOpTest = 66,
  kOpTestSet = 67,
  kOpReturn = 70,
  kOpReturn0 = 71,
  kOpReturn1 = 72,
  kOpJmp = 56,
  kOpClosure = 79,
  kOpVararg = 80,
  kOpVarargPrep = 81,
  kOpExtraArg = 82,
  kNumOpcodes = 83,
};

// Which of an instruction's A, B and C fields name registers, by opcode.
// kCk: C is a register unless the k bit is set. Listed conservatively: a
// field that may name a register counts as one.
enum : uint8_t { kA = 1, kB = 2, kC = 4, kCk = 8 };
// clang-format off
constexpr uint8_t kRegisterFields[kNumOpcodes] = {
    kA | kB,            // MOVE
    kA, kA, kA, kA,     // LOADI LOADF LOADK LOADKX
    kA, kA, kA, kA,     // LOADFALSE LFALSESKIP LOADTRUE LOADNIL
    kA, kA, kA,         // GETUPVAL SETUPVAL GETTABUP
    kA | kB | kC,       // GETTABLE
    kA | kB,            // GETI
    kA | kB,            // GETFIELD
    kCk,                // SETTABUP
    kA | kB | kCk,      // SETTABLE
    kA | kCk, kA | kCk, // SETI SETFIELD
    kA,                 // NEWTABLE
    kA | kB | kCk,      // SELF
    kA | kB,            // ADDI
    kA | kB, kA | kB, kA | kB, kA | kB, kA | kB, kA | kB, kA | kB,  // ADDK .. IDIVK
    kA | kB, kA | kB, kA | kB,                                      // BANDK BORK BXORK
    kA | kB, kA | kB,                                               // SHRI SHLI
    kA | kB | kC, kA | kB | kC, kA | kB | kC, kA | kB | kC,         // ADD SUB MUL MOD
    kA | kB | kC, kA | kB | kC, kA | kB | kC, kA | kB | kC,         // POW DIV IDIV BAND
    kA | kB | kC, kA | kB | kC, kA | kB | kC, kA | kB | kC,         // BOR BXOR SHL SHR
    kA | kB, kA, kA,    // MMBIN MMBINI MMBINK
    kA | kB, kA | kB, kA | kB, kA | kB,  // UNM BNOT NOT LEN
    kA, kA, kA,         // CONCAT CLOSE TBC
    0,                  // JMP
    kA | kB, kA | kB, kA | kB,           // EQ LT LE
    kA, kA, kA, kA, kA, kA,              // EQK EQI LTI LEI GTI GEI
    kA, kA | kB,        // TEST TESTSET
    kA, kA, kA, 0, kA,  // CALL TAILCALL RETURN RETURN0 RETURN1
    kA, kA, kA, kA, kA, // FORLOOP FORPREP TFORPREP TFORCALL TFORLOOP
    kA, kA, kA,         // SETLIST CLOSURE VARARG
    0, 0,               // VARARGPREP EXTRAARG
};
// clang-format on

// Whether `op` may appear in a pure function (lua_bytecode.h): none of
// these calls anything, except that a comparison with an immediate number
// may call __lt or __le of a value that is not a number (which a pure
// function cannot hold: it loads no string, and its tables, ctx and rules,
// have no such metamethod), and GETFIELD, allowed on ctx only, reads
// through ctx's own __index. EQK compares raw, EQI numbers only.
bool PureOpcode(int op) {
  switch (op) {
    case kOpMove:
    case kOpLoadI:
    case kOpLoadF:
    case kOpLoadFalse:
    case kOpLFalseSkip:
    case kOpLoadTrue:
    case kOpLoadNil:
    case kOpGetField:
    case kOpNot:
    case kOpEqK:
    case kOpEqI:
    case kOpLtI:
    case kOpLeI:
    case kOpGtI:
    case kOpGeI:
    case kOpTest:
    case kOpTestSet:
    case kOpJmp:
    case kOpReturn:
    case kOpReturn0:
    case kOpReturn1:
      return true;
    default:
      return false;
  }
}

int Writer(lua_State*, const void* p, size_t size, void* ud) {
  try {
    static_cast<std::string*>(ud)->append(static_cast<const char*>(p), size);
  } catch (...) {
    return 1;  // stops the dump
  }
  return 0;
}

// lua_dump's sizes and ints: 7 bits a byte, most significant first, the
// last byte marked with 0x80 (ldump.c, dumpSize).
bool ReadSize(const std::string& s, size_t& pos, size_t& out) {
  out = 0;
  for (int n = 0; n < 10 && pos < s.size(); ++n) {
    const auto b = uint8_t(s[pos++]);
    out = (out << 7) | (b & 0x7f);
    if (b & 0x80) return true;
  }
  return false;
}

// The header this build writes (ldump.c, dumpHeader), then one byte: the
// main function's upvalue count.
std::string ExpectedHeader() {
  std::string h = LUA_SIGNATURE;
  h += char(0x54);  // version 5.4
  h += char(0);     // official format
  h += std::string("\x19\x93\r\n\x1a\n", 6);
  h += char(4);  // sizeof(Instruction)
  h += char(sizeof(lua_Integer));
  h += char(sizeof(lua_Number));
  const lua_Integer i = 0x5678;
  const lua_Number n = 370.5;
  h.append(reinterpret_cast<const char*>(&i), sizeof i);
  h.append(reinterpret_cast<const char*>(&n), sizeof n);
  return h;
}

std::atomic<int> g_works{-1};  // -1 not checked yet, 0 no, 1 yes

FunctionFacts Inspect(lua_State* L, int index) {
  FunctionFacts facts;
  if (lua_type(L, index) != LUA_TFUNCTION || lua_iscfunction(L, index)) return facts;
  std::string dump;
  lua_pushvalue(L, index);
  const int status = lua_dump(L, Writer, &dump, /*strip=*/1);
  lua_pop(L, 1);
  if (status != 0) return facts;
  static const std::string kHeader = ExpectedHeader();
  if (dump.compare(0, kHeader.size(), kHeader) != 0) return facts;
  size_t pos = kHeader.size() + 1;  // and the upvalue count
  size_t source = 0, line = 0, last_line = 0, size = 0;
  if (!ReadSize(dump, pos, source)) return facts;
  if (source > 0) pos += source - 1;  // stripped dumps have none; skip one anyway
  if (!ReadSize(dump, pos, line) || !ReadSize(dump, pos, last_line)) return facts;
  if (pos + 3 > dump.size()) return facts;
  const int num_params = uint8_t(dump[pos]);
  const int is_vararg = uint8_t(dump[pos + 1]);
  pos += 3;  // and maxstacksize
  if (!ReadSize(dump, pos, size) || size == 0 || size > dump.size() ||
      pos + 4 * size > dump.size() || is_vararg > 1) {
    return facts;
  }
  bool pure = true;
  bool reads_only = !is_vararg;
  for (size_t n = 0; n < size; ++n) {
    uint32_t i;
    std::memcpy(&i, dump.data() + pos + 4 * n, 4);
    const int op = int(i & 0x7f);
    if (op >= kNumOpcodes) return facts;
    const int a = int((i >> 7) & 0xff), b = int((i >> 16) & 0xff), c = int((i >> 24) & 0xff);
    const bool k = (i >> 15) & 1;
    if (!PureOpcode(op)) pure = false;
    // Backward jumps make loops; forward ones run each instruction once.
    if (op == kOpJmp && int32_t(i >> 7) - ((1 << 24) - 1) < 0) pure = false;
    if (op == kOpClosure || op == kOpVararg || op == kOpVarargPrep) reads_only = false;
    const uint8_t fields = kRegisterFields[op];
    const bool c_register = (fields & kC) || ((fields & kCk) && !k);
    if (op == kOpGetField) {
      if (a == 0) reads_only = false;  // overwrites the parameter
      // A pure function reads ctx's fields and touches no other parameter
      // (rules, whose metatable is not the sandbox's concern here).
      if (a < num_params || b != 0) pure = false;
    } else {
      if (((fields & kA) && a == 0) || ((fields & kB) && b == 0) || (c_register && c == 0))
        reads_only = false;
      if (((fields & kA) && a < num_params) || ((fields & kB) && b < num_params) ||
          (c_register && c < num_params))
        pure = false;
    }
  }
  // Every function ends with a return (lcode.c, luaK_finish).
  uint32_t last;
  std::memcpy(&last, dump.data() + pos + 4 * (size - 1), 4);
  const int last_op = int(last & 0x7f);
  if (last_op < kOpReturn || last_op > kOpReturn1) return facts;
  facts.known = true;
  facts.reads_first_param_only = reads_only && num_params >= 1;
  facts.pure = pure && facts.reads_first_param_only;
  return facts;
}

struct Probe {
  const char* source;
  bool reads_only;
  bool pure;
};

// Shapes whose answers are known; each must be read as stated.
constexpr Probe kProbes[] = {
    {"return function(c, r) return c.a end", true, true},
    {"return function(c, r) if c.size < 3 and c.is_new then return nil end end", true, true},
    {"return function(c, r) if c.a > 3 or not c.b then return false end return c.d == true end",
     true, true},
    {"return function(c, r) local t = {} t.x = c.x return t.x end", true, false},
    {"return function(c, r) return c.a + 1 end", true, false},
    {"return function(c, r) return c.a == 'x' end", true, true},
    {"return function(c, r) return c.a < 'x' end", true, false},
    {"return function(c, r) x = c.a end", true, false},
    {"return function(c, r) return tostring(c.a) end", true, false},
    {"return function(c, r) return r.a end", true, false},
    {"return function(c, r) return r < 1 end", true, false},
    {"return function(c, r) if c.a then return nil end return r end", true, false},
    {"local u = 1 return function(c, r) return u end", true, false},
    {"return function(c, r) while true do end end", true, false},
    {"return function(c, r) repeat until c.x end", true, false},
    {"return function(c, r) ::a:: goto a end", true, false},
    {"return function(c, r) for i = 1, 2 do end end", true, false},
    {"return function(c, r) for k in next, r do end end", true, false},
    {"return function(c, r) return c end", false, false},
    {"return function(c, r) x = c end", false, false},
    {"return function(c, r) c.x = 1 end", false, false},
    {"return function(c, r) return tostring(c) end", false, false},
    {"return function(c, r) return c:m() end", false, false},
    {"return function(c, r) return function() return c end end", false, false},
    {"return function(c, r) local d = c.a or c return d end", false, false},
    {"return function(c, r) return c == r end", false, false},
    {"return function(...) return 1 end", false, false},
};

}  // namespace

FunctionFacts InspectFunction(lua_State* L, int index) {
  if (g_works.load(std::memory_order_relaxed) != 1) return FunctionFacts{};
  return Inspect(L, index);
}

bool BytecodeInspectionWorks(lua_State* L) {
  int works = g_works.load();
  if (works >= 0) return works == 1;
  bool ok = true;
  for (const Probe& p : kProbes) {
    if (luaL_loadbufferx(L, p.source, std::strlen(p.source), "=(probe)", "t") != LUA_OK) {
      lua_pop(L, 1);
      ok = false;
      break;
    }
    lua_call(L, 0, 1);
    const FunctionFacts f = Inspect(L, -1);
    lua_pop(L, 1);
    if (!f.known || f.reads_first_param_only != p.reads_only || f.pure != p.pure) {
      ok = false;
      break;
    }
  }
  g_works.store(ok ? 1 : 0);
  return ok;
}

}  // namespace canasta
