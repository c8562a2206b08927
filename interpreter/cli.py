"""The `madang` command line. Exit codes: 0 fine, 1 problems found or the game failed, 2 usage."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import __version__
from .api import GameState, MadangError, load_program, new_game
from .builtins import RulesError
from .diagnostics import Diagnostics


def color_ok(stream) -> bool:
    return stream.isatty() and not os.environ.get("NO_COLOR")


def options_of(pairs: list[str] | None) -> dict:
    out = {}
    for p in pairs or []:
        if "=" not in p:
            raise UsageError(f"--option takes KEY=VALUE, got {p!r}")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


class UsageError(Exception):
    pass


# ---------------------------------------------------------------- check, schema, parse, fmt


def cmd_check(args) -> int:
    from .loader import check_language_file, load_ruleset, load_standalone_cards

    diags = Diagnostics()
    for ref in args.paths:
        p = Path(ref)
        if p.suffix == ".madang":
            folder = next((q for q in p.resolve().parents if (q / "ruleset.yaml").is_file()), None)
            if folder is not None:
                load_ruleset(str(folder), diags)
            else:
                check_language_file(ref, diags)
        elif p.is_file() and p.suffix in (".yaml", ".yml") and p.name != "ruleset.yaml":
            name = load_standalone_cards(ref, diags)
            if name is not None:
                load_ruleset(name, diags, [ref])
        else:
            load_ruleset(ref, diags)
    if args.format == "json":
        print(diags.to_json())
    else:
        sys.stdout.write(diags.render(color=color_ok(sys.stdout)))
        ne, nw = len(diags.errors), len(diags.warnings)
        if ne or nw:
            print(f"{ne} error{'s' if ne != 1 else ''}, {nw} warning{'s' if nw != 1 else ''}")
        else:
            print("ok: no problems found")
    return 1 if diags.errors or (args.strict and diags.warnings) else 0


def cmd_schema(args) -> int:
    from .loader import kinds_spec, load_ruleset
    from .schema import card_schema

    diags = Diagnostics()
    loaded = load_ruleset(args.ruleset, diags, compile=False)
    if loaded is None or diags.has_errors():
        sys.stderr.write(diags.render(color=color_ok(sys.stderr)))
        return 1
    print(json.dumps(card_schema(loaded.meta["name"], kinds_spec(loaded.syms)), ensure_ascii=False, indent=2))
    return 0


def _read(path: str, diags: Diagnostics) -> str | None:
    from .sources import read_text

    return read_text(path, diags)


def cmd_parse(args) -> int:
    from .parser import Origin, parse_card_text, parse_module

    diags = Diagnostics()
    text = _read(args.file, diags)
    node = None
    if text is not None:
        parse = parse_card_text if args.card_text else parse_module
        node = parse(text, Origin(args.file), diags)
    if node is None or diags.has_errors():
        sys.stderr.write(diags.render(color=color_ok(sys.stderr)))
        return 1
    try:
        from .fmt import dump_ast

        print(dump_ast(node))
    except ImportError:
        print(node)
    return 0


def cmd_fmt(args) -> int:
    try:
        from .fmt import format_source
    except ImportError:
        sys.stderr.write("madang fmt: the formatter is not available in this build\n")
        return 1
    diags = Diagnostics()
    text = _read(args.file, diags)
    out = format_source(text, args.file, diags, card_text=args.card_text) if text is not None else None
    if out is None:
        sys.stderr.write(diags.render(color=color_ok(sys.stderr)))
        return 1
    if args.check:
        if out != text:
            print(f"{args.file}: would be reformatted")
            return 1
        return 0
    sys.stdout.write(out)
    return 0


# ---------------------------------------------------------------- list


def cmd_list(args) -> int:
    from .loader import bundled_names, find_ruleset

    import yaml

    rows = []
    for name in bundled_names():
        folder = find_ruleset(name, Diagnostics())
        meta = yaml.safe_load((folder / "ruleset.yaml").read_text(encoding="utf-8"))
        players = meta.get("players")
        if isinstance(players, dict):
            players = f"{players['min']}-{players['max']}"
        title = meta.get("title") or {}
        opts = {k: {"default": v.get("default"), "values": v.get("values")} for k, v in (meta.get("options") or {}).items()}
        rows.append({"name": name, "title": title, "players": players, "options": opts})
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for r in rows:
        t = r["title"]
        print(f"{r['name']}  {t.get('en', '')}{' / ' + t['ko'] if 'ko' in t else ''}  ({r['players']} players)")
        for k, o in r["options"].items():
            values = ", ".join(json.dumps(v, ensure_ascii=False).strip('"') for v in o["values"]) if o["values"] else "any"
            print(f"    --option {k}=...   default {o['default']}; {values}")
    return 0


# ---------------------------------------------------------------- play


def _atomic_write(path: str, text: str) -> None:
    tmp = Path(path).with_name(Path(path).name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def cmd_play(args) -> int:
    from .agents import make_agent
    from .narration import narrate

    if args.load:
        try:
            text = Path(args.load).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise MadangError(f"cannot read {args.load}: {e}") from None
        game = GameState.from_json(text)
        if args.ruleset:
            sys.stderr.write("note: the ruleset comes from the save file\n")
    else:
        if not args.ruleset:
            raise UsageError("play needs a RULESET (or --load FILE)")
        game = new_game(args.ruleset, options_of(args.option), args.seed, cards=tuple(args.cards or ()))
    st = game.st
    prog = st.g.prog
    log_lines: list[str] = []
    st.log = []
    seats = (args.seats or "").split(",") if args.seats else ["random"] * st.g.nplayers
    agents = [make_agent(s.strip()) for s in seats]
    lang = args.lang or prog.meta.get("language") or "en"
    narrate_on = args.format == "text" and (args.verbose or "human" in seats)
    header = {"ruleset": prog.name, "options": st.g.options, "seed": st.g.seed}
    if args.log:
        log_lines.append(json.dumps(header, ensure_ascii=False))
    shown = 0
    stopped = False
    try:
        while not game.is_terminal():
            if narrate_on:
                for e in st.log[shown:]:
                    line = narrate(prog, e, lang)
                    if line:
                        print(line)
                shown = len(st.log)
            if args.max_decisions is not None and st.decisions >= args.max_decisions:
                stopped = True
                break
            seat = game.current_player()
            game.apply_action(agents[seat % len(agents)].choose(game, seat))
    except EOFError:
        sys.stderr.write("input ended: the game stops unfinished\n")
        return 1
    finally:
        if args.log:
            log_lines += [json.dumps(e, ensure_ascii=False) for e in st.log]
            Path(args.log).write_text("\n".join(log_lines) + "\n", encoding="utf-8")
    if narrate_on:
        for e in st.log[shown:]:
            line = narrate(prog, e, lang)
            if line:
                print(line)
    if args.save:
        _atomic_write(args.save, game.to_json())
    result = {
        "ruleset": prog.name,
        "finished": game.is_terminal(),
        "winners": [p + 1 for p in st.winners],
        "returns": game.returns(),
        "decisions": st.decisions,
        "turns": st.turn,
        "digest": game.digest(),
    }
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False))
    elif stopped:
        print(f"stopped after {st.decisions} decisions" + (f"; saved to {args.save}" if args.save else ""))
    else:
        who = ", ".join(f"P{p}" for p in result["winners"]) or "nobody"
        print(f"winner: {who} after {st.decisions} decisions, {st.turn} turns")
    return 0


# ---------------------------------------------------------------- simulate


def cmd_simulate(args) -> int:
    from .simulate import simulate

    seats = args.seats.split(",") if args.seats else None
    progress = None
    bar = None
    if sys.stderr.isatty() and args.games >= 20:
        from rich.progress import Progress

        bar = Progress(transient=True, console=None)
        bar.start()
        task = bar.add_task("games", total=args.games)

        def progress(done):
            bar.update(task, completed=done)

    try:
        result = simulate(args.ruleset, args.games, args.seed, args.jobs, seats, options_of(args.option),
                          tuple(args.cards or ()), args.max_decisions, progress)  # fmt: skip
    finally:
        if bar is not None:
            bar.stop()
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0 if not result["errors"] else 1
    print(f"{result['ruleset']}: {result['games']} games, seed {result['seed']}")
    for s in result["seats"]:
        lo, hi = s["ci95"]
        print(f"  P{s['seat']} wins {s['wins']:>6}  {s['rate']:.1%}  (95% CI {lo:.1%}–{hi:.1%})")
    for opt, table in (result.get("by_option") or {}).items():
        print(f"  by {opt}:")
        for v, row in table.items():
            lo, hi = row["ci95"]
            print(f"    {v:>12}: {row['rate']:.1%} of {row['games']} seat-games  (95% CI {lo:.1%}–{hi:.1%})")
    print(f"  draws {result['draws']}, no winner {result['no_winner']}, unfinished {result['unfinished']}")
    d, t = result["decisions"], result["turns"]
    print(f"  decisions per game {d['mean']} ({d['min']}–{d['max']}), turns {t['mean']} ({t['min']}–{t['max']})")
    for msg, k in result["errors"].items():
        print(f"  error ×{k}: {msg}")
    tm = result["timing"]
    print(f"  {tm['seconds']} s, {tm['games_per_s']} games/s on {tm['jobs']} job(s)")
    return 0 if not result["errors"] else 1


# ---------------------------------------------------------------- test, bench, replay


def cmd_test(args) -> int:
    from .scenario import run_paths

    report = run_paths(args.paths, verbose=args.verbose)
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(report.render())
        if not report.render().endswith("\n"):
            print()
    return 0 if report.failed == 0 else 1


def cmd_bench(args) -> int:
    from .bench import bench
    from .loader import bundled_names

    refs = args.rulesets or bundled_names()
    result = bench(refs, args.games, args.baseline)
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    for ref, r in result["rulesets"].items():
        p = r["playouts"]
        print(f"{ref}")
        print(f"  load and check: {r['load_cold_s']} s cold, {r['load_warm_s']} s warm")
        if "check_1000_cards_s" in r:
            print(f"  1,000 cards checked in {r['check_1000_cards_s']} s")
        print(f"  random playouts: {p['playouts_per_s']}/s, {p['decisions_per_s']} decisions/s, {p['mean_decisions']} decisions and {p['mean_turns']} turns per game")
        print(f"  clone {r['clone_us']} µs, save {r['save_ms']} ms, load {r['load_ms']} ms, mid-game save {r['save_bytes']:,} bytes")
    b = result.get("baseline")
    if b:
        print(f"baseline {b['script']}: {b['playouts_per_s']} playouts/s, {b['decisions_per_s']} decisions/s")
        print(f"  interpreted / hand-written: {b['ratio_playouts']}× slower in playouts, {b['ratio_decisions']}× in decisions")
    return 0


def cmd_replay(args) -> int:
    from .narration import narrate

    try:
        lines = Path(args.log).read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0])
        entries = [json.loads(x) for x in lines[1:] if x.strip()]
    except (OSError, UnicodeDecodeError, ValueError, IndexError) as e:
        raise MadangError(f"not a madang log file: {args.log}: {e}") from None
    if not isinstance(header, dict) or "ruleset" not in header:
        raise MadangError(f"not a madang log file: {args.log}: no header line")
    prog = load_program(header["ruleset"])
    lang = args.lang or prog.meta.get("language") or "en"
    for e in entries:
        line = narrate(prog, e, lang, moves=args.verbose)
        if line:
            print(line)
    return 0


# ---------------------------------------------------------------- main


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="madang", description="A rules language and interpreter for card and board games.")
    ap.add_argument("--version", action="version", version=f"madang {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("check", help="check rulesets, card files or language files")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--strict", action="store_true", help="warnings count as problems")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("schema", help="print the JSON Schema of a ruleset's card files")
    p.add_argument("ruleset")
    p.set_defaults(run=cmd_schema)

    p = sub.add_parser("parse", help="print the syntax tree of a language file")
    p.add_argument("file")
    p.add_argument("--card-text", action="store_true", help="the file is a card text")
    p.set_defaults(run=cmd_parse)

    p = sub.add_parser("fmt", help="print a language file in canonical layout")
    p.add_argument("file")
    p.add_argument("--check", action="store_true", help="only report whether it would change")
    p.add_argument("--card-text", action="store_true")
    p.set_defaults(run=cmd_fmt)

    p = sub.add_parser("list", help="the bundled rulesets")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("play", help="play one game")
    p.add_argument("ruleset", nargs="?")
    p.add_argument("--seats", help="agents per seat: human, random, first, scripted:A|B")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--cards", action="append", metavar="FILE", help="extra card file")
    p.add_argument("--log", metavar="FILE", help="write every event as a JSON line")
    p.add_argument("--save", metavar="FILE")
    p.add_argument("--load", metavar="FILE")
    p.add_argument("--max-decisions", type=int, metavar="N")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--lang", choices=["ko", "en"])
    p.add_argument("-v", "--verbose", action="store_true", help="narrate the game")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("simulate", help="many games on all cores, with win rates")
    p.add_argument("ruleset")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int)
    p.add_argument("--seats")
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--cards", action="append", metavar="FILE")
    p.add_argument("--max-decisions", type=int, default=100_000)
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(run=cmd_test)

    p = sub.add_parser("bench", help="load time, playouts per second, clone and save times")
    p.add_argument("rulesets", nargs="*", metavar="RULESET")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--baseline", metavar="PATH")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(run=cmd_bench)

    p = sub.add_parser("replay", help="narrate a logged game")
    p.add_argument("log")
    p.add_argument("--lang", choices=["ko", "en"])
    p.add_argument("-v", "--verbose", action="store_true", help="show every move too")
    p.set_defaults(run=cmd_replay)
    return ap


def main(argv=None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    if not getattr(args, "run", None):
        ap.print_help()
        return 2
    try:
        return args.run(args)
    except UsageError as e:
        sys.stderr.write(f"madang {args.command}: {e}\n")
        return 2
    except MadangError as e:
        if e.diags is not None and e.diags.items:
            sys.stderr.write(e.diags.render(color=color_ok(sys.stderr)))
        sys.stderr.write(f"madang {args.command}: {e}\n")
        return 1
    except RulesError as e:
        sys.stderr.write(f"madang {args.command}: error in the rules: {e}\n")
        return 1
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        sys.stderr.write(f"madang {args.command}: {e}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
