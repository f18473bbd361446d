# Writes the fuzz seed corpus, OUT/<target>/, from the shipped files under
# SRC: every sample and docs example log, the tests' scenario logs, every
# ruleset file, the shipped score sheet and fuzz/seeds/. The audit and decisions targets read a first byte before the
# log (fuzz/entry_points.h): for audit it picks the log's own built-in
# ruleset (classic when the log names none or a file), for decisions hands 1
# and 3 of the first game.
file(REMOVE_RECURSE ${OUT})
foreach(target log_reader audit ruleset decisions sheet summarize)
  file(MAKE_DIRECTORY ${OUT}/${target})
endforeach()

file(GLOB BUILTINS ${SRC}/rulesets/*.lua)
set(NAMES "")
foreach(f ${BUILTINS})
  get_filename_component(name ${f} NAME_WE)
  list(APPEND NAMES ${name})
endforeach()
list(SORT NAMES)  # as BuiltinRulesetNames()
list(LENGTH NAMES COUNT)
list(FIND NAMES classic CLASSIC)

# A printable character whose code is `index` modulo COUNT.
function(prefix_char index out)
  math(EXPR code "48 + ((${index} - 48 % ${COUNT} + ${COUNT}) % ${COUNT})")
  string(ASCII ${code} c)
  set(${out} "${c}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE LOGS ${SRC}/samples/*.jsonl ${SRC}/docs/checks/examples/*.log
     ${SRC}/tests/scenarios/*.jsonl)
list(SORT LOGS)
foreach(f ${LOGS})
  file(RELATIVE_PATH rel ${SRC} ${f})
  string(REPLACE "/" "_" seed ${rel})
  file(READ ${f} text)
  file(WRITE ${OUT}/log_reader/${seed} "${text}")

  string(FIND "${text}" "\n" eol)
  string(SUBSTRING "${text}" 0 ${eol} header)
  string(JSON ruleset ERROR_VARIABLE bad GET "${header}" ruleset)
  list(FIND NAMES "${ruleset}" index)
  if(bad OR index EQUAL -1)
    set(index ${CLASSIC})
  endif()
  prefix_char(${index} c)
  file(WRITE ${OUT}/audit/${seed} "${c}${text}")

  file(WRITE ${OUT}/decisions/hand1-${seed} "0${text}")
  file(WRITE ${OUT}/decisions/hand3-${seed} "2${text}")
endforeach()

file(GLOB_RECURSE LUA ${SRC}/rulesets/*.lua ${SRC}/samples/*.lua ${SRC}/docs/checks/examples/*.lua)
list(SORT LUA)
foreach(f ${LUA})
  file(RELATIVE_PATH rel ${SRC} ${f})
  string(REPLACE "/" "_" seed ${rel})
  configure_file(${f} ${OUT}/ruleset/${seed} COPYONLY)
endforeach()
# Score sheets (CSV) and audit reports (JSON Lines): the shipped sheet and
# the seeds kept in fuzz/seeds/.
file(GLOB SHEETS ${SRC}/samples/sheets/*.csv ${SRC}/fuzz/seeds/sheet/*.csv)
foreach(f ${SHEETS})
  get_filename_component(name ${f} NAME)
  configure_file(${f} ${OUT}/sheet/${name} COPYONLY)
endforeach()
file(GLOB REPORTS ${SRC}/fuzz/seeds/summarize/*.jsonl)
foreach(f ${REPORTS})
  get_filename_component(name ${f} NAME)
  configure_file(${f} ${OUT}/summarize/${name} COPYONLY)
endforeach()
file(WRITE ${OUT}/.stamp "")
