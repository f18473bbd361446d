// What the compiled code of one Lua function shows about it, read from
// lua_dump's output (Lua's internal headers are not installed), for the v2
// hooks' hot path (scripting/lua_hooks.cc, docs/lua-api.md "How a hook is
// run"):
//   - its first parameter is only ever read from, with a constant name
//     (`ctx.size`), never copied, passed, compared, written or captured: it
//     cannot outlive the call, so the hook may be given a plain table;
//   - pure: besides, it has no loop, calls nothing, touches no other
//     parameter, reads no global or upvalue, writes nothing but its own
//     registers, loads no string, and
//     does nothing a metamethod of a value it can hold could run on, as
//     long as ctx's fields it reads are numbers, booleans or nil: with the
//     same such fields it takes the same path and gives the same answer,
//     and no one can tell whether it ran.
// Only the dump format and opcodes of Lua 5.4 are known; anything else, or
// a build whose dump the self-check does not recognise, yields no facts,
// and the caller keeps the general path.
#ifndef CANASTA_SCRIPTING_LUA_BYTECODE_H_
#define CANASTA_SCRIPTING_LUA_BYTECODE_H_

struct lua_State;

namespace canasta {

struct FunctionFacts {
  bool known = false;                   // the dump was read
  bool reads_first_param_only = false;  // parameter 1 only read by constant field names
  bool pure = false;                    // and the rest of the list above
};

// Facts about the function at `index` (nothing for a C function). Does not
// raise; allocates no Lua memory.
FunctionFacts InspectFunction(lua_State* L, int index);

// Whether InspectFunction reads this Lua build right: probes compiled in
// `L` once a process (inside a protected call: compiling allocates). When
// false, InspectFunction answers `known = false` to everything.
bool BytecodeInspectionWorks(lua_State* L);

}  // namespace canasta

#endif  // CANASTA_SCRIPTING_LUA_BYTECODE_H_
