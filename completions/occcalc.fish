# fish completion for occcalc: commands, flags, and the --cc, --gpu and --gfx
# values of the occcalc being completed (occcalc list --ids).
set -l commands list batch inspect check diff suggest limits sweep help
complete -c occcalc -f
complete -c occcalc -n "not __fish_seen_subcommand_from $commands" -a "$commands"
complete -c occcalc -n "__fish_seen_subcommand_from help" -a "list batch inspect check diff suggest limits sweep"
complete -c occcalc -l help -s h -d "Show help"
complete -c occcalc -l json -d "Print JSON"
complete -c occcalc -l table -r -F -d "Load a table file"
complete -c occcalc -l color -x -a "auto always never" -d "Colour the text"
complete -c occcalc -n "not __fish_seen_subcommand_from $commands" -l version -d "Print the version"
complete -c occcalc -n "not __fish_seen_subcommand_from $commands" -l brief -d "One line: occupancy, blocks, warps, limiter"
complete -c occcalc -n "not __fish_seen_subcommand_from $commands; or __fish_seen_subcommand_from batch" -l min-occupancy -x -d "Gate: minimum occupancy (percent)"
# Kernel flags: the query, suggest, limits and sweep.
set -l kernel "not __fish_seen_subcommand_from list batch inspect check diff help"
complete -c occcalc -n $kernel -l cc -x -a "(occcalc list archs --ids 2>/dev/null)" -d "Compute capability"
complete -c occcalc -n $kernel -l gpu -x -a "(occcalc list gpus --ids 2>/dev/null)" -d "A named GPU"
complete -c occcalc -n $kernel -l gfx -x -a "(occcalc list amd --ids 2>/dev/null)" -d "AMD target"
for flag in threads regs smem dyn-smem barriers grid sm-count cluster vgprs agprs sgprs lds
  complete -c occcalc -n $kernel -l $flag -x
end
complete -c occcalc -n $kernel -l carveout -x -a "default max-shared max-l1"
complete -c occcalc -n $kernel -l cache -x -a "none shared l1 equal"
complete -c occcalc -n $kernel -l model -x -a "llvm hip rcp"
for flag in wave32 wave64 cu-mode wgp-mode
  complete -c occcalc -n $kernel -l $flag
end
# list
complete -c occcalc -n "__fish_seen_subcommand_from list" -a "archs gpus amd all"
complete -c occcalc -n "__fish_seen_subcommand_from list" -l ids -d "Only the ids"
# inspect, check, diff
set -l reads "__fish_seen_subcommand_from inspect check diff"
complete -c occcalc -n $reads -F
complete -c occcalc -n $reads -l kernel -x -d "Kernels whose name matches"
complete -c occcalc -n $reads -l arch -x -a "(occcalc list archs --ids 2>/dev/null; occcalc list amd --ids 2>/dev/null)"
complete -c occcalc -n $reads -s v -l verbose -d "List skipped files"
complete -c occcalc -n $reads -l jobs -x -d "Threads to read with"
for flag in threads dyn-smem carveout
  complete -c occcalc -n $reads -l $flag -x
end
complete -c occcalc -n $reads -l model -x -a "llvm hip rcp"
complete -c occcalc -n "__fish_seen_subcommand_from inspect" -l csv -d "CSV"
complete -c occcalc -n "__fish_seen_subcommand_from inspect" -l wide -d "Every column"
complete -c occcalc -n "__fish_seen_subcommand_from inspect" -l columns -x -a "arch regs sgprs agprs cap smem stack scratch spill bar block blocks waves occupancy limiter kernel"
complete -c occcalc -n "__fish_seen_subcommand_from check" -l policy -r -F
complete -c occcalc -n "__fish_seen_subcommand_from check" -l baseline -r -F
complete -c occcalc -n "__fish_seen_subcommand_from check" -l require-threads -d "Refuse kernels judged at the suggested block size"
complete -c occcalc -n "__fish_seen_subcommand_from check diff" -l format -x -a "text json github sarif markdown"
complete -c occcalc -n "__fish_seen_subcommand_from inspect sweep" -l format -x -a "text json csv"
complete -c occcalc -n "__fish_seen_subcommand_from batch" -l format -x -a "json"
complete -c occcalc -n "not __fish_seen_subcommand_from batch inspect check diff sweep" -l format -x -a "text json"
complete -c occcalc -n "__fish_seen_subcommand_from diff" -l fail-on-regression
for flag in max-register-increase max-stack-increase max-occupancy-drop
  complete -c occcalc -n "__fish_seen_subcommand_from diff" -l $flag -x
end
# suggest, sweep
for flag in max-threads dyn-smem-per-thread target blocks
  complete -c occcalc -n "__fish_seen_subcommand_from suggest" -l $flag -x
end
complete -c occcalc -n "__fish_seen_subcommand_from sweep" -l vary -x -a "threads regs smem barriers cluster vgprs sgprs lds agprs"
for flag in from to step
  complete -c occcalc -n "__fish_seen_subcommand_from sweep" -l $flag -x
end
complete -c occcalc -n "__fish_seen_subcommand_from sweep" -l csv
complete -c occcalc -n "__fish_seen_subcommand_from sweep" -l ascii
complete -c occcalc -n "__fish_seen_subcommand_from sweep" -l svg -r -F
