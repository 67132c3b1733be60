# bash completion for occcalc: commands, flags, and the --cc, --gpu and --gfx
# values of the occcalc being completed (occcalc list --ids).
_occcalc() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local occcalc=${COMP_WORDS[0]}
  local commands="list batch inspect check diff suggest limits sweep help"
  local kernel="--cc --gpu --threads --regs --smem --dyn-smem --carveout --cache --barriers --grid --sm-count --cluster
    --gfx --vgprs --agprs --sgprs --lds --wave32 --wave64 --cu-mode --wgp-mode --model --brief"
  local common="--help --json --format --table --color"
  local inputs="--kernel --arch --verbose --jobs --threads --dyn-smem --carveout --model"
  local cmd="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      list | batch | inspect | check | diff | suggest | limits | sweep | help) cmd=${COMP_WORDS[i]}; break ;;
    esac
  done
  case $prev in
    --cc) COMPREPLY=($(compgen -W "$("$occcalc" list archs --ids 2>/dev/null)" -- "$cur")); return ;;
    --gpu) COMPREPLY=($(compgen -W "$("$occcalc" list gpus --ids 2>/dev/null)" -- "$cur")); return ;;
    --gfx) COMPREPLY=($(compgen -W "$("$occcalc" list amd --ids 2>/dev/null)" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --model) COMPREPLY=($(compgen -W "llvm hip rcp" -- "$cur")); return ;;
    --cache) COMPREPLY=($(compgen -W "none shared l1 equal" -- "$cur")); return ;;
    --carveout) COMPREPLY=($(compgen -W "default max-shared max-l1" -- "$cur")); return ;;
    --vary) COMPREPLY=($(compgen -W "threads regs smem barriers cluster vgprs sgprs lds agprs" -- "$cur")); return ;;
    --format)
      # Each command's formats, as its help lists them.
      case $cmd in
        check | diff) COMPREPLY=($(compgen -W "text json github sarif markdown" -- "$cur")) ;;
        inspect | sweep) COMPREPLY=($(compgen -W "text json csv" -- "$cur")) ;;
        batch) COMPREPLY=($(compgen -W "json" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
      esac
      return ;;
    --columns)
      COMPREPLY=($(compgen -W "arch regs sgprs agprs cap smem stack scratch spill bar block blocks waves occupancy limiter
        kernel" -- "$cur"))
      return ;;
    --policy | --baseline | --table | --svg) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --threads | --regs | --smem | --dyn-smem | --barriers | --grid | --sm-count | --cluster | --vgprs | --agprs | \
      --sgprs | --lds | --min-occupancy | --kernel | --arch | --max-threads | --dyn-smem-per-thread | --target | --blocks | \
      --from | --to | --step | --jobs | --max-register-increase | --max-stack-increase | --max-occupancy-drop)
      return ;;  # a value to type
  esac
  local flags
  case $cmd in
    "") flags="$common --version --min-occupancy $kernel" ;;
    help) COMPREPLY=($(compgen -W "list batch inspect check diff suggest limits sweep" -- "$cur")); return ;;
    list) flags="--help --json --format --ids --color --table"
      [[ $cur != -* ]] && { COMPREPLY=($(compgen -W "archs gpus amd all" -- "$cur")); return; } ;;
    batch) flags="$common --min-occupancy" ;;
    inspect) flags="$common $inputs --csv --wide --columns" ;;
    check) flags="$common $inputs --policy --baseline --require-threads" ;;
    diff) flags="$common $inputs --fail-on-regression --max-register-increase --max-stack-increase
      --max-occupancy-drop" ;;
    suggest) flags="$common $kernel --max-threads --dyn-smem-per-thread --target --blocks" ;;
    limits) flags="$common $kernel" ;;
    sweep) flags="$common $kernel --vary --from --to --step --csv --ascii --svg" ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W "$commands" -- "$cur"))
  elif [[ $cmd == inspect || $cmd == check || $cmd == diff ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o default -F _occcalc occcalc
