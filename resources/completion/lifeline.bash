# bash completion for lifeline(1): its commands, each command's options, and the built-in lessons' places on the
# path, numbers and ids after --lesson (asked of `lifeline lessons` itself, so a new lesson needs no change here).
shopt -s extglob # the file patterns below (bash-completion turns it on too)

_lifeline()
{
    local cur prev command i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    command=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
            run|import|lessons|demo|serve|proxy|practice|check|screenshot|site) command="${COMP_WORDS[i]}"; break ;;
        esac
    done

    case "$prev" in
        --lesson)
            COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" lessons 2>/dev/null | awk '/^  / {print $1, $2, $3}')" -- "$cur"))
            return ;;
        --order)
            COMPREPLY=($(compgen -W "sent received age state" -- "$cur"))
            return ;;
        --export|--csv|--trace|--save|--record|--attributes|--template|--terraform|--dlq-attributes|--consumer|--scenario-out)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --format)
            COMPREPLY=($(compgen -W "text json sarif" -- "$cur"))
            return ;;
        --clock)
            COMPREPLY=($(compgen -W "manual wall" -- "$cur"))
            return ;;
        --fail-on)
            COMPREPLY=($(compgen -W "high medium low" -- "$cur"))
            return ;;
        --until|--at|--seed|--size|--window|--fps|--duration|--port|--bind|--history|--speed|--allow-origin|--allow-host|--set|--choose|--processing|--consumers|--max-messages|--wait-time|--read-timeout|--groups|--tenants|--rate|--lambda|--upstream|--region|--profile|--poll-attributes|--ignore|--queue-url)
            return ;;
    esac

    local options
    case "$command" in
        run)
            options="--lesson --fix --compare --until --seed --summary --csv --trace --export --size --window --dark
                     --alt --high-contrast --alive --order --fps --duration --save --help" ;;
        import)
            if [[ "$cur" != -* ]]; then
                COMPREPLY=($(compgen -f -- "$cur"))
                return
            fi
            options="--attributes --template --terraform --queue-url --region --profile --listen --lag --history --summary --csv --trace --export --size --window --dark --alt
                     --high-contrast --alive --order --save --help" ;;
        lessons)
            options="--cards --help" ;;
        practice)
            if [[ "$cur" != -* && "$prev" == practice ]]; then # the exercises' ids, asked of the program itself
                COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" practice 2>/dev/null | awk '{print $1}')" -- "$cur"))
                return
            fi
            options="--set --choose --solution --drill --seed --help" ;;
        demo)
            options="--help" ;;
        screenshot)
            options="--lesson --at --size --dark --compare --presenter --high-contrast --help" ;;
        check)
            options="--attributes --template --terraform --queue-url --region --profile --lambda-mappings --insecure-upstream --dlq-attributes --processing --consumers --max-messages --wait-time --read-timeout
                     --heartbeat --groups --tenants --rate --lambda --consumer --format --scenario-out --fail-on --ignore --help" ;;
        serve)
            options="--port --bind --headless --history --speed --clock --print-env --every-service --seed --allow-origin --allow-host --allow-get-actions
                     --quotas --faults --help" ;;
        site)
            if [[ "$cur" != -* ]]; then
                COMPREPLY=($(compgen -d -- "$cur"))
                return
            fi
            options="--help" ;;
        proxy)
            options="--upstream --port --bind --headless --record --record-every --region --profile --poll-attributes
                     --insecure-upstream --allow-origin --allow-host --allow-get-actions --help" ;;
        *)
            if [[ "$cur" == -* ]]; then
                COMPREPLY=($(compgen -W "--lesson --help --version" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "run lessons demo serve proxy practice check screenshot site" -- "$cur") $(compgen -f -X '!*.@(json|lifeline)' -- "$cur"))
            fi
            return ;;
    esac
    if [[ "$cur" == -* || "$command" != run ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -X '!*.@(json|lifeline)' -- "$cur"))
    fi
}
complete -o filenames -F _lifeline lifeline
