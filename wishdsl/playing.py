"""`wishdsl run`: play a game with agents and people at the terminal, printed as a log, a JSON document or
explained line by line (`--why`); saved after every decision and resumed (`--resume`)."""
from __future__ import annotations

import json
import sys
from typing import Optional

from dsl.errors import WishError, WishRuntimeError

from .explain import ALL_LINES

EXIT_ABANDONED = 130


def cmd_run(args) -> int:
    from interpreter import load_game

    if args.resume is not None:
        return resume_run(args)
    if args.game is None:
        raise WishError("run needs a GAME (a .wish file), or --resume FILE")
    game = load_game(args.game, args.variant)
    players = args.players if args.players is not None else min(max(4, game.min_players), game.max_players)
    if not game.min_players <= players <= game.max_players:  # before one agent is made per seat
        raise WishError(f"{game.name} is played by {game.played_by()}, not {players}"
                        + variants_for(args, game, players))
    seed = args.seed
    if seed is None:
        import secrets  # only here: it costs every other command ~10 ms of start-up

        seed = secrets.randbelow(2**31)
    agents, specs = seat_agents(args, players, seed)
    print(f"seed {seed} — replay with --seed {seed}", file=sys.stderr if args.json else sys.stdout)
    try:
        state = start_state(args, game, players, seed, agents)
    except WishRuntimeError as err:
        keep_crash_state(err, game, seed)
        raise
    return play_out(args, Match(game, args.game, seed, specs, agents), state, [], args.save)


def start_state(args, game, players: int, seed: int, agents: list):
    """A new game; one that explains its lines (`--why`, and `why N` for a person at the table) when asked."""
    from interpreter.why import ExplainingState

    if args.why is not None or any(a.name == "human" for a in agents):
        return ExplainingState.start(game, players, seed)
    return game.new_state(players, seed)


def variants_for(args, game, players: int) -> str:
    """Which of the game's variants are played by `players` (Wish's Solo for one), as a hint."""
    from dsl.ast import players_text
    from interpreter import load_game

    if args.variant is not None:
        return ""
    fits = []
    for v in game.variants:
        other = load_game(args.game, v)
        if other.min_players <= players <= other.max_players:
            fits.append(v)
    if not fits:
        return ""
    named = " or ".join(f'--variant "{v}"' if " " in v else f"--variant {v}" for v in fits)
    return f"; {named} is played by {players_text(players, players, ' to ')}"


def resume_run(args) -> int:
    from interpreter.engine import Action
    from .saves import load_save

    saved = load_save(args.resume, args.game, why=True)  # a person may ask `why N`; --why may be given
    given = {"--players": (args.players, saved.players), "--seed": (args.seed, saved.seed),
             "--variant": (args.variant, saved.variant)}
    for option, (value, kept) in given.items():
        if value is not None and value != kept:
            raise WishError(f"{option} {value}: the saved game has {kept}; --resume goes on with the saved game")
    if args.agents is not None or args.human is not None:
        agents, specs = seat_agents(args, saved.players, saved.seed)
        if specs != saved.agents:
            raise WishError(f"--agents/--human give {','.join(specs)}; the saved game has {','.join(saved.agents)}")
    print(f"resumed {args.resume}: seed {saved.seed}, {len(saved.actions)} decisions taken",
          file=sys.stderr if args.json else sys.stdout)
    match = Match(saved.game, saved.path, saved.seed, saved.agents, saved.seat_agents)
    taken = [Action(p, label) for p, label in saved.actions]
    return play_out(args, match, saved.state, taken, args.save or args.resume)


class Match:
    """What a run plays: the game, the path it came from, the seed, the agents and their specs."""

    def __init__(self, game, path: str, seed: int, specs: list, agents: list):
        self.game, self.path, self.seed, self.specs, self.agents = game, path, seed, specs, agents

    def save(self, file: str, state, taken: list) -> None:
        from .saves import save_game

        save_game(file, self.game, self.path, state, self.seed, self.specs, taken)


def play_out(args, match: Match, state, taken: list, save_to: Optional[str]) -> int:
    """Play to the end, saving after every decision when `save_to` is set; on Ctrl-C or `quit` in a game
    with a person (or with --save), save and say how to resume."""
    from interpreter.agents import HumanAgent, Quit, play
    from interpreter.why import explanation_lines
    from .explain import check_line, live_printer, print_lines, why_document
    from .replay import replay_actions

    humans = [a for a in match.agents if isinstance(a, HumanAgent)]
    if humans:
        from docgen.lookup import Reference

        reference = Reference(match.path, match.game.variant)
        humans = [h.use_game(match.game, reference) for h in humans]
    if humans and args.json:
        raise WishError("a human player cannot play a game printed as --json")
    on_log = None if (args.json or args.quiet or humans) else print
    if on_log is not None and args.why == ALL_LINES:
        on_log = live_printer(lambda: state)
    if args.why not in (None, ALL_LINES) and args.json:
        raise WishError("--why N explains a line after the game; with --json, use --why (every line's chain "
                        "is in the document)")
    for h in humans:
        h.explain = lambda k, seat, state=state: explanation_lines(state, k, seat)
    after = (lambda st, done: match.save(save_to, st, done)) if save_to else None
    if save_to:
        match.save(save_to, state, taken)
    try:
        play(state, match.agents, on_log, taken, after)
    except (Quit, KeyboardInterrupt):
        if humans or save_to:
            file = save_to or default_save(match)
            # The state may have been cut in the middle of a move: the one saved is rebuilt from the actions.
            done = replay_actions(match.game, state.n, match.seed, [(a.player, a.label) for a in taken])
            match.save(file, done, taken)
            print(f"Game saved to {file}; go on with: wishdsl run --resume {file}", file=sys.stderr)
        print("Game abandoned.", file=sys.stderr)
        return EXIT_ABANDONED
    except WishRuntimeError as err:
        keep_crash_state(err, match.game, match.seed)
        raise
    for h in humans:
        h.show_log(state.log_lines(h.seat))
    if args.json:
        doc = game_document(match, state, taken)
        if args.why is not None:
            doc["why"] = why_document(state)
        print(dump_json(doc))
    else:
        print_result(state)
        if args.why not in (None, ALL_LINES):
            check_line(state, args.why)
            print_lines(state, args.why)
    return 0


def default_save(match: Match) -> str:
    from .saves import default_save_path

    return default_save_path(match.path, match.seed)


def game_document(match: Match, state, taken: list) -> dict:
    """The `run --json` document: enough to replay the game (`wishdsl replay`) and check its outcome."""
    from .replay import game_document as document

    return document(match.game, match.path, match.seed, match.specs, state, [(a.player, a.label) for a in taken])


def keep_crash_state(err, game, seed: int) -> None:
    """A rule went wrong (ran away): write the state it stopped in, for inspection, and say where."""
    if not err.sources:
        err.sources = {game.path: game.program.source}
    if err.state is None:
        return
    from .saves import write_text_atomic

    file = f"wishdsl-crash-{seed}.json"
    try:
        write_text_atomic(file, err.state.to_json())
    except OSError as oserr:
        print(f"(could not write the game state to {file}: {oserr.strerror})", file=sys.stderr)
        return
    print(f"The game state at the error is in {file} (game.state_from_json loads it).", file=sys.stderr)


def seat_agents(args, players: int, seed: int) -> tuple:
    """The agent of every seat from --agents and --human, and the spec of each."""
    from interpreter.agents import make_agent, make_agents, split_specs

    specs = split_specs(args.agents)
    agents = make_agents(specs, players, seed)
    specs = specs * players if len(specs) == 1 else specs
    if args.human is not None:
        if not 1 <= args.human <= players:
            raise WishError(f"--human {args.human}: seats are 1 to {players}")
        agents[args.human - 1] = make_agent("human", args.human - 1, 0)
        specs[args.human - 1] = "human"
    return agents, specs


def dump_json(doc: dict) -> str:
    """One key per line, each value compact."""
    rows = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in doc.items()]
    return "{\n" + ",\n".join(rows) + "\n}"


def print_result(state) -> None:
    """Each player's score (and, when the game scores in several steps, the points of each step and the
    tie-breakers), then the winners and, after a tie, what decided it."""
    print("Result:")
    winners = set(state.winners())
    result = state.result()
    for p, (score, row) in enumerate(zip(state.scores(), result["players"])):
        mark = "  (winner)" if p in winners else "  (loses outright)" if row["lost"] else ""
        print(f"  {state.player_name(p)}: {score}{mark}")
        if len(row["points"]) > 1:
            width = max(len(label) for label in row["points"])
            for label, points in row["points"].items():
                print(f"      {label:<{width}}  {points}")
            if row["tiebreaks"]:
                print("      tie-breakers: " + ", ".join(f"{k} {v}" for k, v in row["tiebreaks"].items()))
    if result["decided_by"] is not None:
        print(f"The tie at the best score is decided by “{result['decided_by']}”.")
    elif result["shared"]:
        print("The best are tied on everything: the win is shared.")
    if winners:
        print("Winner: " + " and ".join(state.player_name(p) for p in sorted(winners)))
    else:
        print("Nobody wins.")
