"""The interpreter: the loop that steps through the frame stack, and the statements that may wait.

Every block is one generated function (build/resumable.py), and its entries are the sections
the loop steps into. A statement that may wait or start a block of its own is a small object
with `exec(st, frame)` that the generated code runs; those that own a frame (loops, scopes,
verb calls with listeners, windows, checks) also have `at_end(st, frame) -> keep?`, called when
their frame's block is done. Expressions are functions `f(st, env)` made by the compiler. A
decision sets `st.pending` and rewinds the frame to the statement's section, so that the same
statement runs again with the answer once `apply_action` gives it: no Python stack holds the
game's progress.
"""

from __future__ import annotations

import functools
import weakref
from collections import deque

from . import budget, seen
from . import inputs as kept_inputs
from .effects import acting, cards_objects, in_force, kept_by_cards, printing_cards
from .errors import RulesError
from .owned import owned_moved
from .state import BLOCK, CHECK, EVENT, FUNC, LOOP, SCOPE, WINDOW, Frame, Pending, State

MAX_CHAIN = 60  # nested events before a trigger loop is declared
DONE = "__done__"


class Stmt:
    """A statement the generated blocks hand over to (one that may wait or start a block of its
    own), or a generated block's section (build/resumable.py). `dirty`: the state checks whose
    condition this statement's step may change (bits; the compiler narrows it,
    build/depends.py), and `END_DIRTY` those that its `at_end` may change."""

    __slots__ = ("id", "span", "mutates", "dirty")
    END_DIRTY = -1
    # its `exec` reads of its frame only the names (`fr.env`): a verb's frameless copy runs it
    # with the call's names alone and makes the verb's frame only where it waits (resumable.py)
    ENV_ONLY = False

    def __init__(self, span):
        self.span = span
        self.id = -1
        self.mutates = False
        self.dirty = -1

    def exec(self, st: State, fr: Frame) -> bool | None:  # pragma: no cover - abstract
        """Run the statement in frame `fr` (its `pc` already past it). True only when it went
        on in place: nothing asked, pushed, left or ended, `fr` on top with its `pc` as it was
        (the generated code then skips its test after the call: `resumable.delegate`)."""
        raise NotImplementedError

    def at_end(self, st: State, fr: Frame) -> bool:
        return False


def run(st: State, answered: bool = False) -> None:
    """Step until a decision is needed or the game is over. `answered`: the run goes on from
    a decision just answered (`api._run`), which changed nothing a check reads; otherwise a
    tool may have changed anything, so every check is due."""
    g = st.g
    # (checks none: what a statement's end makes due is read by nothing)
    lens, fns, stmts, checks = g.prog.loop_tables
    frames = st.frames
    steps = st.steps
    most = g.max_steps
    limit = steps + most  # per stretch between decisions: long games are not hangs
    st.work_limit = st.work + most  # budget.start: this stretch gets the whole budget
    if not answered:
        st.dirty = -1
    try:
        try:
            # (answered: an answer was just taken from the pending decision of a game not over)
            if answered or (st.pending is None and not st.over):
                # `steps` counts the step in progress (a step that asks or ends is the last)
                for steps in range(steps + 1, limit + 2):  # noqa: B020 (the range is made first)
                    try:
                        fr = frames[-1]
                    except IndexError:  # no frame left
                        end_without_result(st)
                        steps -= 1  # (no step taken)
                        break
                    pc = fr.pc
                    if pc < lens[fr.block]:
                        # a generated block's section (build/resumable.py), called without its
                        # `exec`: it marks the checks it makes due and runs them itself
                        fr.pc = pc + 1
                        fns[fr.block](st, fr, pc)
                    elif fr.ctl < 0:
                        frames.pop()  # (the top: nothing ran since it was read)
                        if EFFECT not in fr.env:
                            continue  # a plain block's end asks nothing and ends nothing
                        effect_ended(st, fr.env)
                    else:
                        owner = stmts[fr.ctl]
                        if checks:
                            st.dirty |= owner.END_DIRTY
                        if not owner.at_end(st, fr) and frames and frames[-1] is fr:
                            frames.pop()
                    if st.pending is not None or st.over:
                        break
        except BaseException:
            steps -= 1  # the step in progress was not taken
            raise
        if steps > limit:
            raise RulesError(
                f"no decision within {g.max_steps:,} steps (a loop that never ends?);"
                f" settings.max_steps sets this budget, up to {budget.CEILING:,}"
            )
    except RecursionError:
        raise RulesError(
            "rules nested too deeply (a definition or verb that refers to itself without end?)"
        ) from None
    except RulesError:
        raise  # located already
    except Exception as exc:  # a Python error inside generated code: where in the rules
        note_error = g.prog.note_error
        place = note_error(exc) if note_error is not None else None
        if place is not None and isinstance(exc, TypeError) and "NoneType" in str(exc):
            # the generated code reads without none tests where a none is the rules' doing
            # (a none player's zone or counter): the rules' error, at their place
            raise RulesError(f"{place}: a value is none where the rules need one ({exc})") from exc
        raise
    finally:
        st.steps = steps


_new = object.__new__  # a frame made without its `__init__` where it is made most often

ENTER_DEPTH = 48  # frames in progress beyond which a pushed block waits for the run loop


def enter(st: State, f: Frame) -> None:
    """The run loop's next step, taken at once: the first statement of a verb's block just
    pushed (a generated block's first section). When the block ends without waiting, its frame
    is popped and the caller goes on without a trip through the loop; when it waits, it stays,
    as it would. Bounded in depth: a deeper call waits for the loop (no Python recursion)."""
    frames = st.frames
    if len(frames) > ENTER_DEPTH:
        return
    blk = st.g.prog.blocks[f.block]
    if not blk:
        frames.pop()
        return
    f.pc = 1
    blk[0].fn(st, f, 0)  # a section: it runs the checks it makes due itself
    if f.pc >= len(blk) and frames and frames[-1] is f and st.pending is None:
        frames.pop()


EFFECT = "@fx"  # in the environment of an effect's block: an object's trigger, replacement, action
WAITING = "@wait"  # there: the triggers that wait until the effect has finished (wait_for_effect)


def in_effect(st: State) -> bool:
    """`resolving`: some effect's block is in progress (language.md 11.8)."""
    return any(EFFECT in f.env for f in st.frames)


def effect_starts(st: State, env: dict) -> dict:
    """`env`, the environment of a block about to run, made an effect's: `resolving` is true
    from now on, so the checks that read it are due (`effect_ended` is its other end)."""
    env[EFFECT] = 1
    st.dirty |= st.g.prog.effect_checks
    return env


def effect_ended(st: State, env: dict) -> None:
    """An effect's block is over: the triggers that waited for it resolve, and the checks that
    wait for it (they read `resolving`) are due."""
    prog = st.g.prog
    waiting = env.get(WAITING)
    if waiting:
        del env[WAITING]
        release_held(st, waiting)
    if prog.effect_checks:
        st.dirty |= prog.effect_checks
        if not st.checking and not st.over and st.pending is None:
            run_checks(st)


def end_without_result(st: State) -> None:
    st.over = True
    st.winners = []


def finish(st: State, winners: list[int]) -> None:
    st.over = True
    st.winners = sorted(set(winners))
    note(st, {"game_over": st.winners})


def note(st: State, entry: dict) -> None:
    if st.log is not None:
        st.log.append(entry)


def run_checks(st: State) -> None:
    """The condition of each check that is due, on one state: evaluating them changes nothing
    (their blocks run later, as frames), so what they read is computed once for all of them.

    A check is due when something it reads may have changed since it was last found false
    (`st.dirty`, set by the statements' `dirty` bits); one that fired stays due, as it would be
    evaluated again if every check ran after every statement. A check with `reads` found false
    is kept false, with what it read, until a due state differs in that (runtime/inputs.py);
    the zones it reads, when known by name, count as changed by their bits in `st.zdirty`."""
    g = st.g
    kept = g.kept_points
    plan = kept.get("plan")
    if plan is None:
        plan = kept["plan"] = game_plan(g)
    zch = st.zdirty
    if zch:  # the zones changed since the last call: gathered into this state's points
        st.zdirty = 0
        for bit in plan[1]:
            pt = kept.get(bit)
            if pt is not None and pt[0] is st:
                pt[1] |= zch
    dirty = st.dirty
    if not dirty:
        return
    verify = g.prog.verify_checks
    outer = g.read_cache
    if outer is None:
        g.read_cache = {}
    try:
        for chk, bit, read, zmask, dkey, dmask, tally in plan[0]:
            if dirty & bit:
                if dkey is not None:  # a domain kept by its zones: its items found here
                    pt = kept.get(dkey)  # (`_domain_at`'s kept case written out)
                    if pt is not None and pt[0] is st and not pt[1] & dmask and pt[2] == st.lost:
                        items = pt[3] if not verify else _domain_at(st, chk, kept, dkey, dmask)
                    else:
                        items = _domain_at(st, chk, kept, dkey, dmask)
                    if not items or not chk.fire_over(st, items):  # (none: nothing to fire)
                        dirty &= ~bit
                    continue
                if read is not None:
                    inputs = read(st)
                    pt = kept.get(bit)
                    if pt is not None and (  # (kept_inputs.same, written out)
                        pt[0] is st and not pt[1] & zmask and pt[2] == inputs
                        if zmask is not None
                        else pt[0] is st.zmemo and pt[1] == inputs
                    ):
                        dirty &= ~bit  # false on a state equal in all it reads: false
                        if tally is not None:
                            tally[1] += 1
                        if verify:
                            chk.verify_quiet(st)
                        continue
                    if tally is not None:
                        tally[0] += 1
                        if tally[0] >= TRIAL:
                            _settle(plan[0], chk)
                if not chk.fire(st):
                    dirty &= ~bit
                    if read is not None:
                        kept[bit] = kept_inputs.point(st, inputs, zmask)
            elif verify:
                chk.verify_quiet(st)
    finally:
        g.read_cache = outer
    st.dirty = dirty & g.prog.check_bits


# A kept check's first due points that do not hold, counted in its program's shared plan with
# those that do: if fewer than a quarter of its due points held, it is no longer kept false
# (`_settle`).
TRIAL = 256


def _settle(rows: list, chk) -> None:
    """Stop counting check `chk`'s points in the shared plan's `rows`; if they held at fewer
    than a quarter of its due points, it is no longer kept false in this program's games:
    reading its parts at each due point and copying them after each false evaluation then
    cost more than the evaluations they spare (a check that many moves make due while what it
    reads changes; docs/speed.md has the measured case). Which states it is evaluated on
    changes, never what a game does: a check kept false is false (`Program.verify_checks`)."""
    for i, row in enumerate(rows):
        if row[0] is chk:
            bit, dmask, tally = row[1], row[5], row[6]
            if tally[1] * 3 < tally[0]:  # (a kept domain found by its zones again)
                dkey = None if dmask is None else ("domain", bit)
                rows[i] = (chk, bit, None, None, dkey, dmask, None)
            else:
                rows[i] = (*row[:6], None)


def game_plan(g) -> tuple:
    """`_check_plan` of game `g`, made once per program and layout of zones and shared by its
    games (`inputs.per_layout`): it reads nothing else of a game, and making it (the readers'
    `eval`, the zones' masks) cost 1-2% of a random game."""
    plan, g.zone_checks = kept_inputs.per_layout(_plans, g, _plan_and_zone_checks)
    return plan


def _plan_and_zone_checks(g) -> tuple:
    plan = _check_plan(g)  # (it sets g.zone_checks, the checks by zone instance)
    return plan, g.zone_checks


# By program (kept while it lives): by the id of a layout's `zone_info`, (it, (the plan, the
# checks by zone instance)), as `game_plan` made them.
_plans: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _check_plan(g) -> tuple:
    """Per game: each check with the reader of what it reads (runtime/inputs.py) and the bits
    of the zones it reads, when it may be kept false; the keys of the points that gather the
    changes of zones (`State.zdirty`); and by check, the bits of the zones of a kept domain
    (`_kept_domain`)."""
    rows, zoned, domains = [], [], {}
    for chk in g.prog.checks:
        read = zmask = dkey = None
        if chk.zoned and chk.domain_zones is not None:
            domains[chk.bit] = kept_inputs.zone_mask(g, chk.domain_zones)
            dkey = ("domain", chk.bit)
            zoned.append(dkey)
        if chk.reads is not None:
            zones = chk.zones
            read = kept_inputs.reader(g, chk.reads, cards=zones is None)
            if read is not None and zones is not None:
                zmask = kept_inputs.zone_mask(g, zones)
                zoned.append(chk.bit)
        if read is not None:  # (kept false by what it reads: `fire` finds the domain)
            dkey = None
        tally = None if read is None else [0, 0]  # (its points that did not hold, that did)
        rows.append((chk, chk.bit, read, zmask, dkey, domains.get(chk.bit), tally))
    zone_checks(g)
    return rows, tuple(zoned), domains


def zone_checks(g) -> list[int]:
    """By zone instance, the bits of the checks that read it by name (`Check.marked_zones`):
    due when an object leaves or enters it (move_object), as a `move` statement's own mask
    holds only the zones it names (not a verb's parameter's, build/depends.py)."""
    canon = g.prog.canonical
    bits = [
        sum(c.bit for c in g.prog.checks if canon.get(name, name) in c.marked_zones)
        for name, _owner in g.zone_info
    ]
    g.zone_checks = bits if any(bits) else []  # (empty: no check reads a zone by name)
    return g.zone_checks


def ask(
    st: State,
    fr: Frame,
    player: int,
    prompt: str,
    values: list,
    kind: str = "choose",
    type_="any",
    rewind: bool = True,
) -> None:
    st.pending = Pending(player, prompt, values, kind, type_)
    if st.lki:
        st.lki = []  # an arrival's events are over by the next decision
        forget_kept(st, "lki")
        st.dirty |= st.g.prog.lki_checks
    if rewind:
        fr.pc -= 1


def take_answer(st: State):
    st.has_answer = False
    v = st.answer
    st.answer = None
    return v


def unwind(st: State, kinds: tuple[int, ...], inclusive: bool) -> Frame | None:
    """Pop frames up to the nearest frame of one of `kinds`. The triggers waiting in a `hold:`
    block that is left this way (`return`, `break`) resolve at once, as at its end."""
    frames = st.frames
    held = []
    out = None
    ended = None  # the environment of an effect's block that was left
    while frames:
        f = frames[-1]
        if f.kind in kinds:
            if inclusive:
                frames.pop()
                if f.kind == FUNC and EFFECT in f.env:
                    ended = f.env
            out = f
            break
        if f.kind == SCOPE and f.items and type(st.g.prog.stmts[f.ctl]) is Hold:
            held += f.items
        if f.kind == FUNC and EFFECT in f.env:
            ended = f.env
        frames.pop()
    if held:
        release_held(st, held)
    if ended is not None:
        effect_ended(st, ended)
    return out


def leave_func(st: State, fr: Frame) -> None:
    """A `require` that failed, or a `return`, in a block whose own frame `fr` is of kind FUNC
    (build/resumable.py `_Emitter.leave`): `unwind(st, (FUNC,), inclusive=True)` and
    `recount_checks` when `fr` is the innermost frame, as it is while its section runs (no
    `hold:` block to release, no check's frame left, so the count of those is unchanged)."""
    frames = st.frames
    if frames and frames[-1] is fr:
        frames.pop()
        if EFFECT in fr.env:
            effect_ended(st, fr.env)
        return
    unwind(st, (FUNC,), inclusive=True)
    recount_checks(st)


def recount_checks(st: State) -> None:
    st.checking = sum(1 for f in st.frames if f.kind == CHECK)


# ---------------------------------------------------------------- value labels


def label(st: State, v, t) -> str:
    """A short stable text for a value of static type `t` (in options, logs and observations)."""
    if v is None:
        return "none"
    if t == "trigger":  # [listener id, source]: a trigger waiting to be ordered
        lst = st.g.prog.listener_by_id[v[0]]
        return (label(st, v[1], "object") + ": " if v[1] is not None else "") + lst.short
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        inner = t[1] if isinstance(t, tuple) else "any"
        return "[" + ", ".join(label(st, x, inner) for x in v) + "]"
    if t == "object" and isinstance(v, int):
        return st.g.prog.cards[st.obj_card[v]].name
    if t == "player" and isinstance(v, int):
        return f"P{v + 1}"
    if t == "zone" and isinstance(v, int):
        return st.g.zone_label(v)
    if t == "area" and isinstance(v, int):
        return st.g.areas[v]
    return str(v)


# ---------------------------------------------------------------- simple statements


def set_game_value(st, name, v, span) -> None:
    """`first_player = p`, `turn_direction = -1`: the turn order the rules decide."""
    if name == "first_player":
        if not isinstance(v, int) or not 0 <= v < st.g.nplayers:
            raise RulesError(f"{span}: first_player must be a player, got {v!r}")
        st.first = v
    else:
        if v not in (1, -1):
            raise RulesError(f"{span}: turn_direction must be 1 or -1, got {v!r}")
        st.direction = v
    forget_kept(st, "scope")


def forget_kept(st, token: str) -> None:
    """A write of `token` (build/depends.py): what the continuous modifiers give each object,
    kept until a zone changes (effects.prop_reader), is forgotten if they read it."""
    if token in st.g.prog.kept_reads:
        st.kt = None


def set_owner(st, what, p) -> None:
    """`x.owner = p` (objects made in a shared zone and later handed out, control changes)."""
    st.own_objects()
    for o in what if isinstance(what, list) else [what]:
        if o is not None:
            st.obj_owner[o] = p
    st.kn = None  # (the objects each seat owns: built again when read)
    forget_kept(st, "owner")


class SetDict(Stmt):
    """An assignment to data or an option: refused when it runs."""

    __slots__ = ()

    def exec(self, st, fr):
        raise RulesError(f"{self.span}: data and options cannot be changed")


def move_object(st: State, o: int, z: int, where: str, index: int = 0) -> None:
    """Object `o` moved to the back, the front or index `index` of zone instance `z`: the
    engine's own moves and the tools' (`move_objects` does the work)."""
    move_objects(st, o, z, where, index, None)


def move_objects(st, o, z, where, idx, span) -> None:
    """`move X to Z` (`span`: the statement's place): `o` one object or a list, to the back,
    the front or an index of Z. Without a span, one object moved for the engine (`move_object`).
    The work of a move is written here, not in a function it calls: every move of a playout is
    a statement's, of one object, with no log (one Python call a move, not two)."""
    if span is not None and (o.__class__ is not int or z is None or st.log is not None):
        _move_stated(st, o, z, where, idx, span)  # none, a list, no zone or a log kept
        return
    old = st.obj_zone[o]
    if st.kept is not None:
        seen.track_move(st, o, old, z, where)
    g = st.g
    if old != z:
        st.obj_from[o] = old
        st.obj_moves[o] += 1
        if z in g.renewing:
            renew(st, o)
    st.zmemo = None
    if old >= 0:
        bits = 1 << old | 1 << z
        if st.zo != -1 and st.zo & bits != bits:  # (lists a clone shares copied)
            st.own_zones(bits)
        zones = st.zones
        zones[old].remove(o)
        # the checks that read the zones it leaves and enters, by name (made with the checks'
        # plan: until the game's first run_checks, every check of every state is due)
        if g.zone_checks:
            zc = g.zone_checks
            st.dirty |= zc[z] | zc[old]
    else:
        bits = 1 << z
        if st.zo != -1 and not st.zo & bits:
            st.own_zones(bits)
        zones = st.zones
        if g.zone_checks:
            st.dirty |= g.zone_checks[z]
    st.zdirty |= bits  # (the bits of the zones changed: run_checks)
    # what is kept from the zones and the objects' cards, forgotten where the move changes it
    # (each read again from the state, not held: most are none, tested in one step each)
    if st.kt is not None:  # (the kept totals of continuous modifiers: inputs.kept_totals)
        kt = st.kt
        if kt[0] & bits or kt[3] & bits and st.obj_card[o] in kt[4]:
            st.kt = None
    if st.kp is not None and st.obj_card[o] in st.kp[0]:
        # (the objects of continuous modifiers' cards present, effects._present: in place)
        modifiers_moved(st, o, st.obj_card[o], old, z, where, idx)
    if st.kw is not None:  # (the objects present of cards with abilities: objects_by_card)
        card = st.obj_card[o]
        if card in st.kw[0]:
            zs = g.card_zones
            zs = g.active_set if zs is None else zs[card]
            if z in zs or old in zs:  # (it comes or goes where its abilities are in force)
                present_moved(st, o, card, old in zs, z if z in zs else -1, where, idx)
    if st.kn is not None:  # (the objects each seat owns in each zone: owned.owned_moved)
        rows, totals, base = st.kn
        row = rows[st.obj_owner[o]]
        row[old] -= 1
        row[z] += 1
        if base[old] != base[z]:
            totals[base[old]] -= 1
            totals[base[z]] += 1
    if where == "back":
        zones[z].append(o)
    elif where == "front":
        zones[z].insert(0, o)
    else:
        dest = zones[z]
        dest.insert(max(0, min(idx, len(dest))), o)
    st.obj_zone[o] = z


def present_moved(st, o, card, was: bool, z: int, where: str, idx: int) -> None:
    """Object `o` of a card with abilities (`card`) left where they are in force (`was`)
    and/or comes to zone `z` where they are (-1: it does not), before it is placed there:
    `objects_by_card`'s map, when kept, written in place (`o` taken out of its card's list,
    put where the zones' order puts it); the windows' plans, which hold the lists, kept but
    for those of windows with actions of `card` when it comes to be present or stops being
    (they are made again). `State.kw` is a state's own, never shared."""
    kw = st.kw
    plans = kw[1]
    present = plans.get(PRESENT)  # (none: no plan either, nothing kept)
    if present is not None and by_card_moved(st, present, o, card, was, z, where, idx):
        for key, by_card in kw[2].items():  # `card` now present or gone: the plans of the
            if card in by_card:  # windows with actions of its own made again
                plans.pop(key, None)


def modifiers_moved(st, o, card, old: int, z: int, where: str, idx: int) -> None:
    """`present_moved` for the maps of continuous modifiers' cards present (`State.kp`,
    effects._present), `old` and `z` the zones `o` leaves and comes to: each map of a set of
    cards with `card` written in place where `o` leaves or comes where its abilities are in
    force; none made again."""
    g = st.g
    zs = g.card_zones
    zs = g.active_set if zs is None else zs[card]
    was = old in zs
    if z not in zs:
        if not was:
            return
        z = -1
    sets = g.prog.kp_ids
    for key, present in st.kp[1].items():
        if card in sets[key]:
            by_card_moved(st, present, o, card, was, z, where, idx)


def by_card_moved(st, present: dict, o, card, was: bool, z: int, where: str, idx: int) -> bool:
    """A map of objects present by card, in the zones' order, written in place for `o`'s move
    (`present_moved`'s arguments): whether its set of cards changed."""
    lst = present.get(card)
    if was:
        lst.remove(o)
    if z >= 0:
        if lst is None:
            present[card] = [o]
            return True
        lst.insert(_place(st, lst, z, where, idx), o)
    elif not lst:
        del present[card]
        return True
    return False


def _place(st, lst: list, z: int, where: str, idx: int) -> int:
    """Where in `lst` (objects of one card present, in the zones' order: `_objects_by_card`)
    an object put at the back, the front or index `idx` of zone `z` goes, before it is put."""
    rank = st.g.active_zones.index
    rz = rank(z)
    zone = st.obj_zone
    at = st.zones[z].index
    for i, e in enumerate(lst):
        r = rank(zone[e])
        if r > rz or r == rz and where != "back" and (where == "front" or at(e) >= idx):
            return i
    return len(lst)


def _move_stated(st, o, z, where, idx, span) -> None:
    """`move_objects` of a statement's `o` that is not one object, or with a log kept."""
    if z is None:
        raise RulesError(f"{span}: no zone to move to")
    if o is None:
        return
    if st.log is not None or isinstance(o, list):
        _move_listed(st, o, z, where, idx)
        return
    move_objects(st, o, z, where, idx, None)


def _move_listed(st, what, z, where, idx) -> None:
    """`move_objects` of a list, or with a log kept: each object moved, then the log's entry."""
    was = seen.origin(st, what) if st.log is not None else None
    if isinstance(what, list):
        for k, o in enumerate(list(what)):
            move_objects(st, o, z, where, idx + k if where == "at" else 0, None)
    else:
        move_objects(st, what, z, where, idx, None)
    if st.log is not None:
        note_move(st, what, z, was)


def note_move(st, what, z, was=None):
    if st.log is not None:
        objs = what if isinstance(what, list) else [what]
        entry = {"move": [label(st, o, "object") for o in objs], "to": st.g.zone_label(z)}
        note(st, seen.moved(st, entry, objs, z, was))


def renew(st: State, o: int) -> None:
    """`o` came into a zone declared `new objects`: it is a new object, with no memory of what
    happened to it before: its fields go back to its card's, and its modifiers, grants
    (whatever their duration) and `once per` uses end."""
    if st.mods:
        st.mods = [m for m in st.mods if m[0] != o]
    prog = st.g.prog
    if prog.statics_grant and st.obj_zone[o] in st.g.active_set:
        # keywords continuous grants give it where it was: last known too (a granted exit fires)
        known = [(o, kw, None, None, args) for kw, args in prog.continuous_grants(st, o)]
        if known:
            st.lki = st.lki + [(o, st.obj_moves[o], m) for m in known]
            forget_kept(st, "lki")
    if st.grants:
        kept = [m for m in st.grants if m[0] != o]
        if len(kept) != len(st.grants):  # its last known grants, for its arrival's events
            moves = st.obj_moves[o]
            st.lki = st.lki + [(o, moves, m) for m in st.grants if m[0] == o]
            st.grants = kept
            forget_kept(st, "grants")
    st.drop_props((o,))
    if st.used:
        st.used = [u for u in st.used if u[1] != o or not prog.object_ability(u[0])]


_append = list.append
_drain = deque(maxlen=0).extend  # (runs an iterator for its calls, keeping nothing)


def create_object(st: State, card_index: int, z: int, owner: int) -> int:
    """A new object of card `card_index` in zone instance `z`, owned by `owner` (the engine's
    and the tools' objects: `create_card` does the work)."""
    return create_card(st, card_index, z, owner)


def create_card(st, card, z, owner, span=None) -> int:
    """`create NAME in Z [for P]` (`span`: the statement's place, `card` the card's name): a new
    object of a card; its owner is the zone's, else the active player. Without a span, `card`
    is the card's index and `owner` given (`create_object`). The work is written here, not in a
    function it calls: most objects are a statement's (one Python call an object, not two)."""
    if span is not None:
        name, card = card, st.g.prog.card_index.get(card)
        if card is None:
            raise RulesError(f"{span}: no card named {name!r}")
        if owner is None:
            owner = st.g.zone_player[z]
            if owner < 0:
                owner = st.active
    o = len(st.obj_card)
    if st.pvo != -1:  # a clone's or a cloned state's: what it writes and may share copied
        st.own_new(z)
    st.obj_card.append(card)
    st.ko = None  # (the objects of cards: effects.cards_objects)
    st.obj_zone.append(z)
    st.obj_owner.append(owner)
    st.obj_from.append(-1)
    st.obj_moves.append(0)
    pv = st.pv
    if pv:  # its value in each slot of the layout: its card's
        _drain(map(_append, pv, st.g.card_slots[card]))
    if st.wrote != -1:  # a new object: all its properties are new (State.wrote; -1: all are)
        st.wrote |= 1 << o
    st.zones[z].append(o)
    st.zmemo = None
    st.zdirty |= 1 << z
    if st.kn is not None:
        owned_moved(st.kn, owner, -1, z)
    # (what is kept, read again from the state where it is not none: as `move_objects` does)
    if st.kt is not None:
        kt = st.kt
        if kt[0] >> z & 1 or kt[3] >> z & 1 and card in kt[4]:
            st.kt = None
    if st.kp is not None and card in st.kp[0]:
        modifiers_moved(st, o, card, -1, z, "back", 0)
    if st.kw is not None and card in st.kw[0]:
        zs = st.g.card_zones
        if z in (st.g.active_set if zs is None else zs[card]):
            present_moved(st, o, card, False, z, "back", 0)
    return o


def remove_objects(st, what) -> None:
    """`remove X`: objects leave the game (no zone)."""
    for o in what if isinstance(what, list) else [what]:
        if o is None:
            continue
        z = st.obj_zone[o]
        if z >= 0:
            if st.kept:
                seen.track_removal(st, o, z)
            st.zmemo = st.kp = None
            if z in st.g.active_set:  # (objects_by_card reads the active zones only)
                st.kw = None
            st.zdirty |= 1 << z
            kt = st.kt
            if kt is not None and (kt[0] >> z & 1 or kt[3] >> z & 1 and st.obj_card[o] in kt[4]):
                st.kt = None
            (st.zones if st.zo >> z & 1 else st.own_zones(1 << z))[z].remove(o)
            if st.kn is not None:
                owned_moved(st.kn, st.obj_owner[o], z, -1)
            st.obj_from[o] = z
            st.obj_moves[o] += 1
        st.obj_zone[o] = -1


def shuffle_zone(st: State, z: int) -> None:
    """Shuffle a zone: what was revealed of its order is not known any more."""
    if st.zo != -1 and not st.zo >> z & 1:  # (a list a clone shares copied)
        st.own_zones(1 << z)
    objs = st.zones[z]
    if st.shown:
        st.shown = [s for s in st.shown if s[0] not in objs]
    if st.kept:
        seen.track_shuffle(st, z)
    st.shuffle(objs)
    st.zmemo = st.kp = None
    if z in st.g.active_set:  # (objects_by_card reads the active zones only)
        st.kw = None
    st.zdirty |= 1 << z
    kt = st.kt
    if kt is not None and (kt[0] | kt[3]) >> z & 1:
        st.kt = None


class Reveal(Stmt):
    """`reveal x to p`: the players see the objects until those next change zones (a shuffle
    of their zone hides them again). Logged for those players only."""

    __slots__ = ("what", "to")

    def __init__(self, span, what, to):
        super().__init__(span)
        self.what, self.to = what, to
        self.mutates = True

    def exec(self, st, fr):
        Reveal.run(st, self.what(st, fr.env), self.to(st, fr.env))

    @staticmethod
    def run(st, what, to) -> None:
        objs = [o for o in (what if isinstance(what, list) else [what]) if o is not None]
        players = [p for p in (to if isinstance(to, list) else [to]) if p is not None]
        if not objs or not players:
            return
        shown = st.shown = [s for s in st.shown if not (s[0] in objs and s[1] in players)]
        for o in objs:
            for p in players:
                shown.append((o, p, st.obj_moves[o]))
        if st.log is not None:
            entry = {"reveal": [label(st, o, "object") for o in objs], "to": players}
            note(st, seen.mark(entry, [seen.object_seers(st, o) for o in objs]))


def log_value(st: State, v, t) -> None:
    """`log VALUE`: a line in the game's log, seen by whoever may see the value."""
    if st.log is not None:
        note(st, seen.mark({"log": label(st, v, t)}, [seen.value_seers(st, v, t)]))


class Require(Stmt):
    """Outside an action's head: leave the current block's function when the condition fails."""

    __slots__ = ("cond",)

    def __init__(self, span, cond):
        super().__init__(span)
        self.cond = cond

    def exec(self, st, fr):
        if not self.cond(st, fr.env):
            unwind(st, (FUNC,), inclusive=True)
            recount_checks(st)


def win_or_lose(st, who, lose) -> None:
    """`win P` ends the game; `lose P` puts players out (the last one left wins)."""
    who = who if isinstance(who, list) else [who]
    if not lose:
        finish(st, who)
        return
    for p in who:
        if p not in st.lost:
            st.lost = st.lost + [p]  # (replaced, never written in place: a clone shares it)
            forget_kept(st, "lost")
    note(st, {"lost": sorted(st.lost)})
    left = [p for p in range(st.g.nplayers) if p not in st.lost]
    if len(left) <= 1:
        finish(st, left)


class End(Stmt):
    """`end turn` / `end phase`: jump to the end of the nearest such scope; `end game`: a draw
    unless someone already won."""

    __slots__ = ("what",)

    def __init__(self, span, what):
        super().__init__(span)
        self.what = what

    def exec(self, st, fr):
        if self.what == "game":
            finish(st, [p for p in range(st.g.nplayers) if p not in st.lost] if st.lost else [])
            return
        stmts = st.g.prog.stmts
        frames = st.frames
        held = []  # the triggers waiting in `hold:` blocks that are left resolve at once
        while frames:
            f = frames[-1]
            if f.kind == SCOPE:
                s = stmts[f.ctl]
                if type(s) is Hold:
                    held += f.items or []
                elif s.kind == self.what:
                    f.pc = len(st.g.prog.blocks[f.block])
                    break
            frames.pop()
        if held:
            release_held(st, held)
        recount_checks(st)


class Return(Stmt):
    __slots__ = ()

    def exec(self, st, fr):
        unwind(st, (FUNC,), inclusive=True)
        recount_checks(st)


class Break(Stmt):
    __slots__ = ()

    def exec(self, st, fr):
        unwind(st, (LOOP,), inclusive=True)


class AddModifier(Stmt):
    """`modify x.prop by n` / `modify x.prop to n` and `grant K[args] to x`, each
    `[until end of S]`. A modifier is `(target, prop, amount, until, ts, op)` (op "set" for
    `to`); a grant is `(target, keyword, until, ts, args)`."""

    __slots__ = ("target", "prop", "amount", "until", "grant", "until_of", "args", "op")

    def __init__(
        self, span, target, prop, amount, until, grant, until_of=None, args=None, op="add"
    ):
        super().__init__(span)
        self.target, self.prop, self.amount, self.until, self.grant = (
            target,
            prop,
            amount,
            until,
            grant,
        )
        self.until_of = until_of  # `until end of turn of P`
        self.args, self.op = args, op
        self.mutates = True

    def exec(self, st, fr):
        env = fr.env
        until = self.until
        if self.until_of is not None:
            until = turn_of(self.until_of(st, env))
        args = [a(st, env) for a in self.args] if self.args else None
        AddModifier.run(
            st, self.target(st, env), self.prop, self.amount(st, env), until, self.grant, args,
            self.op,
        )  # fmt: skip

    @staticmethod
    def run(st, targets, prop, amount, until, grant, args=None, op="add") -> None:
        targets = targets if isinstance(targets, list) else [targets]
        if until == "phase":
            until = scope_name(st, until)
        st.ts += 1
        if grant:
            args = list(args) if args else []
            # (these lists are replaced, never written in place: a clone shares them)
            st.grants = st.grants + [
                (o, amount, until, st.ts, args) for o in targets if o is not None
            ]
            forget_kept(st, "grants")
        else:
            st.mods = st.mods + [
                (o, prop, amount, until, st.ts, op) for o in targets if o is not None
            ]


def scope_name(st, until):
    """`phase` in `until end of phase` / `once per phase` means the phase in progress."""
    return (st.phase or until) if until == "phase" else until


def turn_of(player) -> str:
    """The duration `until end of turn of P`: it ends with the next end of a turn of P (this
    turn's end when P is the active player)."""
    return f"turn:{player}"


# ---------------------------------------------------------------- control flow


class For(Stmt):
    END_DIRTY = 0  # the next round changes only local names
    __slots__ = ("name", "items", "body")

    def __init__(self, span, name, items, body):
        super().__init__(span)
        self.name, self.items, self.body = name, items, body

    def exec(self, st, fr):
        env = fr.env
        items = self.items(st, env)
        items = list(items) if isinstance(items, list) else list(st.zones[items])
        if not items:
            return
        budget.charge(st, len(items), f"{self.span}: for")
        env[self.name] = items[0]
        st.frames.append(Frame(self.body, env, self.id, LOOP, items, 0))

    def at_end(self, st, fr):
        i = fr.i + 1
        if i < len(fr.items):
            fr.i = i
            fr.env[self.name] = fr.items[i]
            fr.pc = 0
            return True
        return False


class Repeat(Stmt):
    END_DIRTY = 0  # the next round changes only local names
    __slots__ = ("times", "body")

    def __init__(self, span, times, body):
        super().__init__(span)
        self.times, self.body = times, body

    def exec(self, st, fr):
        n = self.times(st, fr.env)
        if n > 0:
            budget.charge(st, n, f"{self.span}: repeat")
            st.frames.append(Frame(self.body, fr.env, self.id, LOOP, None, n - 1))

    def at_end(self, st, fr):
        if fr.i > 0:
            fr.i -= 1
            fr.pc = 0
            return True
        return False


class While(Stmt):
    END_DIRTY = 0  # the next round changes only local names
    __slots__ = ("cond", "body", "until")

    def __init__(self, span, cond, body, until):
        super().__init__(span)
        self.cond, self.body, self.until = cond, body, until

    def exec(self, st, fr):
        if bool(self.cond(st, fr.env)) != self.until:
            st.frames.append(Frame(self.body, fr.env, self.id, LOOP))

    def at_end(self, st, fr):
        if bool(self.cond(st, fr.env)) != self.until:
            fr.pc = 0
            return True
        return False


class Hold(Stmt):
    """`hold: BLOCK`: abilities triggered inside the block wait in the frame and resolve after
    it, all together in the ruleset's trigger order (a TCG's "after the damage is processed")."""

    __slots__ = ("body", "END_DIRTY")

    def __init__(self, span, body):
        super().__init__(span)
        self.body = body
        self.mutates = True
        self.END_DIRTY = -1  # (the compiler narrows it: build/depends.py `end_writes`)

    def exec(self, st, fr):
        st.frames.append(Frame(self.body, fr.env, self.id, SCOPE, [], 0))

    def at_end(self, st, fr):
        st.frames.pop()  # this frame; the held triggers go where it was
        if fr.items:
            release_held(st, fr.items)
        return False


def release_held(st: State, items: list) -> None:
    """Resolve the triggers that waited in `hold:` blocks, in trigger order."""
    prog = st.g.prog
    found = [(prog.listener_by_id[i], src, dict(env), key) for i, src, env, key in items]
    found.sort(key=lambda t: t[3])
    resolve_found(st, found)


class ScopeStmt(Stmt):
    """`turn P:`, `round:` and `phase NAME:`: modifiers and limits may last until their end."""

    __slots__ = ("kind", "name", "player", "body", "names", "END_DIRTY")
    ENV_ONLY = True  # (`exec` reads `fr.env` alone)

    def __init__(self, span, kind, name, player, body):
        super().__init__(span)
        self.kind, self.name, self.player, self.body = kind, name, player, body
        self.END_DIRTY = -1  # (the compiler narrows it: build/depends.py `end_writes`)
        self.names = {name}  # a phase's spellings (`phase gather/모으기:`)
        self.mutates = True

    def exec(self, st, fr):
        extra = {"phase": st.phase}
        kind = self.kind
        if kind == "phase":
            st.phase = self.name
            if st.log is not None:
                note(st, {"phase": self.name})
        elif kind == "turn":
            st.active = self.player(st, fr.env)
            st.turn += 1
            forget_kept(st, "scope")
            if st.log is not None:
                note(st, {"turn": st.turn, "player": st.active})
        else:
            st.round += 1
            forget_kept(st, "scope")
            if st.log is not None:
                note(st, {"round": st.round})
        frames = st.frames
        body = self.body
        prog = st.g.prog
        n = prog.block_lens[body]
        if not n or len(frames) > ENTER_DEPTH:
            frames.append(Frame(body, fr.env, self.id, SCOPE, None, 0, extra))
            return
        # the run loop's next step taken at once (as `enter` takes a verb's): the body's
        # first section, and the scope's end when the body ended without waiting
        top = _new(Frame)  # (`Frame.__init__` written out: no Python call)
        top.block = body
        top.pc = 1
        top.env = fr.env
        top.ctl = self.id
        top.kind = SCOPE
        top.items = None
        top.i = 0
        top.extra = extra
        frames.append(top)
        prog.block_fns[body](st, top, 0)
        if st.pending is None and not st.over and top.pc >= n and frames and frames[-1] is top:
            if prog.checks:
                st.dirty |= self.END_DIRTY
            if st.mods or st.grants or st.used:
                self.at_end(st, top)  # (false: the scope is over; it asks and pushes nothing)
            elif kind == "phase":  # (`at_end` when nothing lasts until a scope's end)
                st.phase = extra["phase"]
            frames.pop()
            return True  # (gone on in place: `fr` is on top again, as `Stmt.exec` says)
        return None

    def at_end(self, st, fr):
        if not (st.mods or st.grants or st.used):  # nothing lasts until a scope's end
            if self.kind == "phase":
                st.phase = fr.extra["phase"]
            return False
        names = self.names
        # a turn also ends the modifiers `until end of turn of` its player
        other = turn_of(st.active) if self.kind == "turn" else self.name
        mods, grants = st.mods, st.grants
        if mods:
            st.mods = [m for m in mods if m[3] not in names and m[3] != other]
        if grants:
            st.grants = [m for m in grants if m[2] not in names and m[2] != other]
            forget_kept(st, "grants")
        if len(st.mods) != len(mods) or len(st.grants) != len(grants):
            st.dirty |= st.g.prog.expire_checks  # (what an `expire` may change)
        if st.used:
            st.used = [u for u in st.used if u[2] not in names]
        if self.kind == "phase":
            st.phase = fr.extra["phase"]
        return False


class Expire(Stmt):
    """`expire S`: the modifiers and grants `until end of S` end now, as they would when the
    scope S ends (`expire turn` also those `until end of turn of` the active player; `expire
    phase` those of the phase in progress); `once per` records are kept."""

    __slots__ = ("scope", "names")

    def __init__(self, span, scope, names):
        super().__init__(span)
        self.scope, self.names = scope, frozenset(names)
        self.mutates = True

    def exec(self, st, fr):
        names = set(self.names)
        if self.scope == "turn":
            names.add(turn_of(st.active))
        elif self.scope == "phase" and st.phase:
            names.add(st.phase)
        if st.mods:
            st.mods = [m for m in st.mods if m[3] not in names]
        if st.grants:
            st.grants = [m for m in st.grants if m[2] not in names]
            forget_kept(st, "grants")


# ---------------------------------------------------------------- decisions


class Choose(Stmt):
    """One pick, or between `lo` and `hi` picks one at a time (with a 'done' option)."""

    __slots__ = ("name", "options", "by", "prompt", "lo", "hi", "type", "key", "counted")

    def __init__(self, span, name, options, by, prompt, lo, hi, type_):
        super().__init__(span)
        self.name, self.options, self.by, self.prompt = name, options, by, prompt
        self.lo, self.hi, self.type = lo, hi, type_
        self.key = "\x00" + name  # the picks so far of several, in the frame's environment
        # 1 (`lo`) | 2 (`hi`): written as the count of the options (compiler.counts_options)
        self.counted = 0

    def exec(self, st, fr):
        env = fr.env
        if self.lo is None:  # one pick
            if st.has_answer:  # (take_answer, written out)
                st.has_answer = False
                env[self.name] = st.answer
                st.answer = None
                return True  # (gone on in place: `Stmt.exec`)
            opts = self.options(st, env)
            opts = list(opts) if isinstance(opts, list) else list(st.zones[opts])
            by = self.by(st, env) if self.by is not None else env.get("you", st.active)
            if not opts:
                env[self.name] = None
                return True
            if len(opts) == 1 and st.g.auto_single:
                env[self.name] = opts[0]
                return True
            ask(st, fr, by, self.prompt, opts, "choose", self.type)
            return None
        key = self.key
        if st.has_answer:  # (take_answer, written out)
            st.has_answer = False
            v = st.answer
            st.answer = None
            picked = env.get(key, [])
            if v == DONE:
                env.pop(key, None)
                env[self.name] = picked
                return
            memo = st.zmemo
            kept = memo.get(CHOICE) if memo is not None else None
            was = picked
            picked = picked + [v]
            env[key] = picked
            if kept is not None and kept[0] is self and kept[1] is was:
                # the next pick of the same question on the same state: what the last one
                # found, less the pick (see `_keep_choice`)
                opts = kept[2][:]
                if v in opts:
                    opts.remove(v)
                if st.g.prog.verify_checks:  # (the test suite: the same as found afresh)
                    self._verify_kept(st, env, picked, opts, kept)
                self._next_pick(st, fr, env, key, picked, opts, kept[3], kept[4], kept[5])
                return
        counted = self.counted
        if counted and CHOICE_COUNTED:  # (what the options charged, for their count)
            w = st.work
            opts = self.options(st, env)
            spent = st.work - w
        else:
            counted = 0
            opts = self.options(st, env)
        opts = list(opts) if isinstance(opts, list) else list(st.zones[opts])
        by = self.by(st, env) if self.by is not None else env.get("you", st.active)
        rng = st.rng
        picked = env.get(key, [])
        if counted:
            n = len(opts)
            lo = self.lo(st, env) if not counted & 1 else _counted(st, env, self.lo, n, spent)
            hi = self.hi(st, env) if not counted & 2 else _counted(st, env, self.hi, n, spent)
        else:
            lo, hi = self.lo(st, env), self.hi(st, env)
        for p in picked:
            if p in opts:
                opts.remove(p)
        if st.rng == rng and st.chance is None and not st.lki:
            _keep_choice(st, self, picked, opts, by, lo, hi)
        self._next_pick(st, fr, env, key, picked, opts, by, lo, hi)

    def _verify_kept(self, st, env, picked, opts, kept) -> None:
        fresh = self.options(st, env)
        fresh = list(fresh) if isinstance(fresh, list) else list(st.zones[fresh])
        for p in picked:
            if p in fresh:
                fresh.remove(p)
        by = self.by(st, env) if self.by is not None else env.get("you", st.active)
        if (fresh, by, self.lo(st, env), self.hi(st, env)) != (opts, *kept[3:]):
            raise AssertionError(f"{self.span}: the next pick's question kept is not the one found")

    def _next_pick(self, st, fr, env, key, picked, opts, by, lo, hi) -> None:
        """Between `lo` and `hi` picks: the picks end, or the next one is asked."""
        if len(picked) >= hi or not opts:
            env.pop(key, None)
            env[self.name] = picked
            return
        if len(picked) < lo and len(opts) + len(picked) <= lo:
            env.pop(key, None)
            env[self.name] = picked + opts[: lo - len(picked)]
            return
        env[key] = picked
        values = list(opts)
        if len(picked) >= lo:
            values.append(DONE)
        ask(st, fr, by, self.prompt, values, "choose", self.type)


CHOICE = ("choice kept",)  # the key of `_keep_choice`'s entry in `State.zmemo`
CHOICE_COUNTED = True  # a number of picks written as the count of the options: found with them


def _counted(st: State, env, fn, found: int, spent: int) -> int:
    """`fn`, the count of a choice's options, which were `found` charging `spent`: the same
    expression on the same state (it draws no random number), so the same number and the same
    charge, without computing it again. Past the budget, `fn` itself raises its error (charges
    are never negative: a sum within it means every step of it was)."""
    w = st.work + spent
    if w > st.work_limit:
        return fn(st, env)
    if st.g.prog.verify_checks:  # (the test suite: the same as computed)
        n = fn(st, env)
        if (n, st.work) != (found, w):
            raise AssertionError("a choice's count of its options is not the one found")
        return n
    st.work = w
    return found


def _keep_choice(st: State, stmt: Choose, picked: list, opts: list, by, lo, hi) -> None:
    """What a question of several picks found (its options less the picks so far, who picks,
    how many), kept for its next pick: between two picks of one question nothing runs, so the
    state is the same (the expressions drew no random number and the question found no last
    known information to forget: the caller checks). Kept in `State.zmemo`, which a move, a
    clone, a load and a tool that places objects (`State.forget_kept`) empty; valid only for
    this list of picks (`picked`, replaced at each pick), so another frame or a clone, whose
    picks may differ, finds it afresh."""
    memo = st.zmemo
    if memo is None:
        memo = st.zmemo = {}
    memo[CHOICE] = (stmt, picked, opts, by, lo, hi)  # (`_next_pick` does not change opts)


class Order(Stmt):
    __slots__ = ("name", "items", "by", "prompt", "type")

    def __init__(self, span, name, items, by, prompt, type_):
        super().__init__(span)
        self.name, self.items, self.by, self.prompt, self.type = name, items, by, prompt, type_

    def exec(self, st, fr):
        env = fr.env
        key = "\x00" + self.name
        picked = env.get(key, [])
        if st.has_answer:
            picked = picked + [take_answer(st)]
        items = self.items(st, env)
        items = items if isinstance(items, list) else st.zones[items]
        if not picked:
            # the whole ordering is about n²/2 options offered over n decisions: charged now,
            # so that ordering a huge list is a budget error, not a game that never ends
            budget.charge(st, len(items) * len(items) // 2, f"{self.span}: order")
        try:
            taken = set(picked) if len(picked) > 8 else picked
        except TypeError:  # lists among the items: compared one by one
            taken = picked
        rest = [x for x in items if x not in taken]
        if len(rest) <= 1:
            env.pop(key, None)
            env[self.name] = picked + rest
            return
        env[key] = picked
        by = self.by(st, env) if self.by is not None else env.get("you", st.active)
        ask(st, fr, by, self.prompt, rest, "order", self.type)


class Window(Stmt):
    """Offer a window's actions: to one player until they pass (or once), or to a list of
    players in turn until all of them pass one after another."""

    __slots__ = (
        "name", "by", "once", "actions", "pass_if", "END_DIRTY", "by_read", "by_text", "by_name",
        "solo", "one", "cards", "listing",
    )  # fmt: skip
    ENV_ONLY = True  # (`exec` reads `fr.env` alone)

    def __init__(
        self, span, name, by, once, actions, pass_if=None, by_read=None, by_text="", by_name=None
    ):
        super().__init__(span)
        self.END_DIRTY = -1  # (the compiler narrows it: build/depends.py `end_writes`)
        self.name, self.by, self.once, self.actions = name, by, once, actions
        self.pass_if = pass_if  # `pass if COND`: pass is offered only while COND holds
        # `by` kept per game while what it reads is unchanged, when that is only counters, the
        # players out and the turn order (build/depends.py `fixed_reads`): the reader of those
        # (runtime/inputs.py), and the text of `by` (the windows of one text share its value)
        self.by_read, self.by_text = by_read, by_text
        self.by_name = by_name  # `by` a plain local name: its entry in the frame's environment
        self.solo = False  # how it is listed: `plan_listing`, once the actions are compiled
        self.one = None  # the same when it is one action's enumerator (else None)
        self.cards = None  # with a card's own action: `_action_order`'s pair (else None)
        # `listing(st, player)`: the options of `player` in this window, by the function of
        # its plan with what it reads bound (`plan_listing`; until then, `enumerate_actions`')
        self.listing = functools.partial(listed_actions, actions)

    def _players(self, st, env, inputs):
        """`by` found and kept with what it read (`Game.domains`, under its text), or
        compared with the kept value (the test suite's `verify_checks`)."""
        kept = st.g.domains
        pt = kept.get(self.by_text)
        by = self.by(st, env)
        if pt is not None and pt[0] == inputs:
            if pt[1] != by:
                raise AssertionError(f"{self.span}: a window's kept players differ from `by`")
        else:
            kept[self.by_text] = (kept_inputs.point(st, inputs)[1], by)
        return by[:] if type(by) is list else by

    def exec(self, st, fr):
        name = self.by_name
        if name is not None:
            by = fr.env.get(name)
        elif (read := self.by_read) is None:
            by = self.by(st, fr.env)
        else:  # kept while what it reads is unchanged: the players' order, not the zones
            inputs = read(st)
            pt = st.g.domains.get(self.by_text)
            if pt is None or pt[0] != inputs or st.g.prog.verify_checks:
                by = self._players(st, fr.env, inputs)
            else:
                by = pt[1]
                if type(by) is list:  # (a frame owns its list of players)
                    by = by[:]
        multi = isinstance(by, list)
        if multi and not by:
            return True
        g = st.g
        checks = g.prog.checks
        if not multi and not checks and not st.has_answer and g.auto_single:
            # One player and no state checks: the first question is found now, and a window
            # with nothing to do but pass is passed without a frame (the same game).
            if by in st.lost:
                return True
            one = self.one
            if one is None:
                values = self.listing(st, by)
            else:  # one action's enumerator, called here as `listing` would
                values = []
                one(st, {"you": by}, None, values, NO_CACHE)
            if not values:
                return True  # (nothing to do: gone on in place)
            return self.offer(st, fr, by, values)
        wf = Frame(
            g.prog.empty_block,
            fr.env if self.pass_if is not None else {},  # COND reads the statement's names
            self.id,
            WINDOW,
            by if multi else [by],
            0,
            {"passes": 0, "multi": multi, "done": False},
        )
        st.frames.append(wf)
        # Without state checks nothing runs between this step and the window's first
        # question, so it is asked (or passed) now rather than after a trip through the run
        # loop: the same game, fewer steps (docs/engine.md, "the step counter").
        if not checks and not self.at_end(st, wf) and st.frames[-1] is wf:
            st.frames.pop()

    def offer(self, st, fr, by, values):
        """The first question of a window of one player without state checks, whose options
        `values` (not empty) were found by its `exec` or by the generated section that reaches
        it (build/resumable.py `_Emitter.window`): its frame pushed, the one option taken at
        once or the question asked (None: the caller tests what happened, as after `exec`)."""
        pass_if = self.pass_if
        if pass_if is None:
            values.append(DONE)
            env = {}
        else:
            env = fr.env  # COND reads the statement's names
            if pass_if(st, env):
                values.append(DONE)
        wf = _new(Frame)  # (`Frame.__init__` written out: no Python call)
        wf.block = st.g.prog.empty_block
        wf.pc = 0
        wf.env = env
        wf.ctl = self.id
        wf.kind = WINDOW
        wf.items = [by]
        wf.i = 0
        wf.extra = {"passes": 0, "multi": False, "done": False}
        frames = st.frames
        frames.append(wf)
        if len(values) == 1:  # one option and no pass: taken at once
            st.has_answer, st.answer = True, values[0]
            if not self.at_end(st, wf) and frames[-1] is wf:
                frames.pop()
        else:
            st.pending = q = _new(Pending)  # (its `__init__` written out)
            q.player = by
            q.prompt = self.name
            q.values = values
            q.kind = "window"
            q.type = "action"
            if st.lki:
                ask(st, wf, by, self.name, values, "window", "action", rewind=False)
        return None

    def plan_listing(self) -> None:
        """How the window is listed (`solo`): when its actions are all the rules' own without
        limit or cost (`direct`) and share no first test (`_guarded`'s), by the one action's
        enumerator, or a tuple of theirs called in order (the same options as
        `enumerate_actions`, without its look-ups); else False (`enumerate_actions`). Found from
        the program alone when its actions are compiled (build/compiler.py), never while playing."""
        acts = self.actions
        solo = False
        guards = [a.guard for a in acts if a.guard is not None]
        # (shared guards whether or not `ENUM_GUARDS` is on now: found from the program alone)
        if acts and all(a.direct for a in acts) and len(set(guards)) == len(guards):
            solo = acts[0].fast_enum if len(acts) == 1 else tuple(a.fast_enum for a in acts)
        self.solo = solo
        self.one = solo if len(acts) == 1 and solo is not False else None
        self.cards = _by_card(acts) if any(a.origin == "card" for a in acts) else None
        self.listing = lister(self)

    def at_end(self, st, fr):
        ex = fr.extra
        if ex["done"]:  # (set only where this returns)
            return False
        players = fr.items
        multi = ex["multi"]
        ran = False
        while True:
            if st.has_answer:
                st.has_answer = False  # take_answer
                v = st.answer
                st.answer = None
                if v == DONE:
                    passes = ex["passes"] = ex["passes"] + 1
                    if not multi or passes >= len(players):
                        return False
                    fr.i = (fr.i + 1) % len(players)
                    continue
                ex["passes"] = 0
                if self.once:
                    ex["done"] = True
                elif multi:
                    fr.i = (fr.i + 1) % len(players)
                player = players[fr.i if not multi else (fr.i - 1) % len(players)]
                if not start_action(st, v, player, None if ran else fr):
                    return True
                if ex["done"]:
                    return False
                ran = True  # (one action a step run here: an endless window still counts steps)
                if st.g.prog.checks:
                    st.dirty |= self.END_DIRTY  # what this step's start made due, again
                continue
            player = players[fr.i]
            if player in st.lost:  # a player out of the game passes from now on
                st.has_answer, st.answer = True, DONE
                continue
            values = self.listing(st, player)
            auto = st.g.auto_single
            if not values and auto:  # pass is all there is: taken at once
                passes = ex["passes"] = ex["passes"] + 1
                if not multi or passes >= len(players):
                    return False
                fr.i = (fr.i + 1) % len(players)
                continue
            # `pass if COND`: no pass while COND is false, unless nothing else can be done
            if not values or self.pass_if is None or self.pass_if(st, fr.env):
                values.append(DONE)
            if len(values) == 1 and auto:
                st.has_answer, st.answer = True, values[0]
                continue
            st.pending = q = _new(Pending)  # (its `__init__` written out)
            q.player = player
            q.prompt = self.name
            q.values = values
            q.kind = "window"
            q.type = "action"
            if st.lki:
                ask(st, fr, player, self.name, values, "window", "action", rewind=False)
            return True


def lister(w: Window):
    """`Window.listing` for `w`'s plan: one action's enumerator (`one`), the rules' own
    actions' enumerators in order (`solo`), `card_listing` with the window's order by card
    (`cards`), else `enumerate_actions`; each a partial of a function of the module, so that
    a listing is that function's one frame."""
    if w.one is not None:
        return functools.partial(_listed_one, w.one)
    if w.solo is not False:
        return functools.partial(_listed_solo, w.solo)
    if w.cards is not None:
        return functools.partial(card_listing, w.actions, w.cards)
    return functools.partial(listed_actions, w.actions)


def _listed_one(one, st, player: int) -> list:
    """The options of a window of one action: its enumerator's (nothing to share)."""
    values: list = []
    one(st, {"you": player}, None, values, NO_CACHE)
    return values


def _listed_solo(solo: tuple, st, player: int) -> list:
    """The options of a window of the rules' own actions, listed by their own functions."""
    values: list = []
    env = {"you": player}
    cache: dict = {}
    for f in solo:
        f(st, env, None, values, cache)
    return values


class _Unkept(dict):
    """The cache of a listing that shares no domain (a window's one action, an object's own
    options): every enumerator's domain computed at each call, as the listing's own dict would
    be at its first. An enumerator reads `cache.get(key)` and writes `cache[key] = d` without
    testing for a cache (build/enumerators.py); here the write is `dict.get`, a call in C that
    keeps nothing (no Python frame)."""

    __slots__ = ()
    __setitem__ = dict.get


NO_CACHE = _Unkept()  # (always empty: what an enumerator is given for no cache)


# a window's actions whose enumerators start with the same test of counters: the test made
# once per listing, the actions it fails skipped (`_guarded`; off: each enumerator tests it)
ENUM_GUARDS = True


def enumerate_actions(st: State, actions, player: int) -> list:
    """The legal options of a window's actions, in the order the actions were written. A
    card's own actions are looked at only for the objects of that card present, so cards
    loaded but not in play cost nothing."""
    return listed_actions(actions, st, player)


def listed_actions(actions, st: State, player: int) -> list:
    """`enumerate_actions`, the actions first (a window's `listing` binds them)."""
    g = st.g
    order = g.action_orders.get(id(actions))
    if order is None:
        order = _action_order(g, actions)
    kind = order[0]
    if kind is not None and kind is not False:
        return card_listing(actions, order, st, player)
    # no card's own action: each listed by its own function
    values: list = []
    cache: dict = {}
    env = {"you": player}  # shared: an enumerator takes its parameters out when it ends
    if kind is None:
        rows, calls = order[1], order[2]
    else:  # the same, and first tests shared by actions: each tested once
        guards = order[2]  # (mostly one: its outcome made without a comprehension's frame)
        ok = (
            (guards[0](st, player),) if len(guards) == 1 else tuple([t(st, player) for t in guards])
        )
        got = order[3].get(ok)
        if got is None:  # the actions whose guard passes (or who have none), in order
            rows = tuple(r for r, k in zip(order[1], order[4]) if k is None or ok[k])
            got = order[3][ok] = (rows, _in_a_row(_free_calls(rows)))
        rows, calls = got
    used = st.used
    if not used and calls is not None:  # no limit used: every enumerator called as it is
        calls(st, env, values, cache)
        return values
    for fast, act in rows:
        if fast is not None:  # ActionRT.enumerate's case of one source and no limit or cost
            fast(st, env, None, values, cache)
        elif act.origin == "global" and not act.costs:  # a limit: ActionRT.enumerate's
            if not used:
                act.fast_enum(st, env, None, values, cache)
            elif act.limit_by is None:
                if not act._used_up(st, player, None):
                    act.fast_enum(st, env, None, values, cache)
            else:  # a limit per argument: the options it used up left out
                start = len(values)
                act.fast_enum(st, env, None, values, cache)
                if len(values) > start:
                    act._filter(st, player, values, start)
        else:
            act.enumerate(st, player, values, cache)
    return values


def card_listing(actions, order: tuple, st: State, player: int) -> list:
    """`enumerate_actions` of a list with a card's own action (`order`: `_action_order`'s
    pair): the actions of the window's plan (`_present_actions`, kept in `State.kw`)."""
    kw = st.kw
    if kw is None:
        kw = st.kw = (_ability_cards(st.g), {}, {})
    plan = kw[1].get(id(actions))
    if plan is None:
        plan = kw[1][id(actions)] = _present_actions(st, actions, order)
        kw[2][id(actions)] = order[1]  # (its cards: `present_moved` forgets it for those)
    elif st.g.prog.verify_checks and plan != _present_actions(st, actions, order):
        raise AssertionError("an object of a card with actions moved without forgetting State.kw")
    values: list = []
    cache: dict = {}
    env = {"you": player}  # shared: an enumerator takes its parameters out when it ends
    owner = st.obj_owner
    for act, srcs in plan:
        if srcs is None:
            act.fast_enum(st, env, None, values, cache)
        elif srcs is False:
            act.enumerate(st, player, values, cache)
        else:  # ActionRT.enumerate's case of a card's own without limit or cost
            fast = act.fast_enum
            for src in srcs:
                if owner[src] == player:
                    fast(st, {"you": player, "this": src}, src, values, NO_CACHE)
    return values


PRESENT = ("objects by card",)  # the key of objects_by_card in an enumeration's cache


def _ability_cards(g) -> frozenset:
    """The cards that have abilities of their own (actions, triggers, costs; computed once
    per program and layout, `Game.laid`): only their objects are found present
    (`objects_by_card`), and a move of an object of another card leaves that and every
    window's plan as they were (`State.kw`)."""
    got = g.action_cards
    if got is None:
        got = g.laid.get(ABILITY_CARDS)
        if got is None:
            prog = g.prog
            got = {a.card_index for a in prog.actions if a.origin == "card"}
            got |= {lst.card_index for lst in prog.listener_by_id.values() if lst.origin == "card"}
            got = g.laid[ABILITY_CARDS] = frozenset(got)
        g.action_cards = got
    return got


ABILITY_CARDS = ("cards with abilities",)  # the key of `_ability_cards` in `Game.laid`


def _present_actions(st: State, actions: list, order: tuple) -> list:
    """A window's actions that may have options now, in the order they were written, each with
    how it is listed: (action, None) for the rules' own without limit or cost, (action, its
    card's objects present, a list written in place by the moves) for a card's own without
    limit or cost, (action, False) for the rest (`ActionRT.enumerate`). Kept until a card with
    actions in the window comes to be present or stops being (`present_moved`), an active
    zone is shuffled or an object removed (`State.kw`): the objects of other cards do not
    change it, and their owners are read at each listing."""
    always, by_card = order
    present = objects_by_card(st)
    picks = list(always)
    if len(by_card) < len(present):
        for c, idx in by_card.items():
            if c in present:
                picks += idx
    else:
        for c in present:
            picks += by_card.get(c, ())
    picks.sort()
    plan = []
    for i in picks:
        act = actions[i]
        if act.direct:
            plan.append((act, None))
        elif act.origin == "card" and act.limit is None and not act.costs:
            plan.append((act, present[act.card_index]))
        else:
            plan.append((act, False))
    return plan


def action_order(g, actions):
    """(positions of the actions that are not a card's own, {card: their positions}) for a
    window's list of actions, or None when it has no card's action (computed once)."""
    got = g.action_orders.get(id(actions)) or _action_order(g, actions)
    return got if got[0] is not None and got[0] is not False else None


def _action_order(g, actions) -> tuple:
    """`action_order`'s pair, or for a list without a card's own action `_guarded`'s (None or
    False, each action's (fast_enum, action), ...): the enumerator called directly when the
    action is `direct` (kept under the list's id, `Game.action_orders`, which the list is kept
    alive by: its id is not another list's while the entry lives)."""
    got = _by_card(actions)
    if not got[1]:
        got = _guarded(actions)
    orders = g.action_orders
    orders[id(actions)] = got
    orders.setdefault(LISTS, []).append(actions)
    return got


LISTS = ("the lists of actions",)  # the key of the lists of `_action_order`'s entries


def _by_card(actions) -> tuple:
    """(the positions of the actions that are not a card's own, {card: their positions})."""
    by_card: dict[int, list[int]] = {}
    always = []
    for i, act in enumerate(actions):
        if act.origin == "card":
            by_card.setdefault(act.card_index, []).append(i)
        else:
            always.append(i)
    return (always, by_card)


def _guarded(actions) -> tuple:
    """`_action_order`'s entry of a list without a card's own action: (None, each action's
    (fast_enum or None, action), their `_free_calls`); or, when two or more of the actions
    share a guard (an enumerator's first test that reads only counters, `ActionRT.guard`, the
    same function for the same source), (False, those rows, the shared guards, an empty
    dictionary of the rows and their `_free_calls` kept by the guards' outcomes, each action's
    guard's position among them or None). The
    listing tests each shared guard once and lists only the actions whose guard passes: the
    others' enumerators would have returned at that test, before any domain or charge."""
    rows = tuple((act.fast_enum if act.direct else None, act) for act in actions)
    count: dict = {}
    if ENUM_GUARDS:
        for act in actions:
            if act.guard is not None:
                count[act.guard] = count.get(act.guard, 0) + 1
    guards = [t for t, k in count.items() if k > 1]
    if not guards:
        return (None, rows, _in_a_row(_free_calls(rows)))
    at = {t: i for i, t in enumerate(guards)}
    return (False, rows, tuple(guards), {}, tuple(at.get(act.guard) for act in actions))


def _free_calls(rows: tuple) -> tuple | None:
    """What `enumerate_actions` calls for `rows` while no limit is used (`State.used` empty):
    each action's enumerator, when every action is listed by it alone (a direct one, or the
    rules' own with a limit and no cost); else None (the rows' own tests)."""
    calls = []
    for fast, act in rows:
        if fast is None and (act.origin != "global" or act.costs):
            return None
        calls.append(act.fast_enum if fast is None else fast)
    return tuple(calls)


@functools.lru_cache(maxsize=256)
def _in_a_row(calls: tuple | None):
    """`calls` (a listing's enumerators: `_free_calls`) as one function of the listing's
    arguments `(st, env, values, cache)` that calls each in turn: the same calls without a
    loop's own operations for each (its next item, the function stored and loaded again),
    three bytecodes an enumerator for the one frame of this function. None for None. Made
    once per tuple of enumerators in a process (the windows' orders are kept per game)."""
    if calls is None:
        return None
    names = [f"_f{k}" for k in range(len(calls))]
    code = "def _calls(st, env, values, cache):\n" + "".join(
        f"    {name}(st, env, None, values, cache)\n" for name in names
    )
    ns = dict(zip(names, calls))
    exec(compile(code + "    return\n", "<madang listing>", "exec"), ns)  # (no rules' text)
    fn = ns["_calls"]
    fn.calls = calls
    return fn


def action_label(st: State, value) -> str:
    act = st.g.prog.actions[value[0]]
    return " ".join([act.name] + [label(st, a, t) for a, t in zip(value[1], act.param_types)])


def _note_action(st: State, act, env: dict, args, player: int) -> None:
    """An action started, in the log (or told to its recorder: tools/cardstats.py)."""
    watch = getattr(st.log, "on_call", None)
    if watch is not None:
        watch(st, act, env)
        return
    pairs = list(zip(args, act.param_types))
    entry = {"action": act.name, "player": player, "args": [label(st, a, t) for a, t in pairs]}
    note(st, seen.mark(entry, [seen.value_seers(st, a, t) for a, t in pairs]))


def start_action(st: State, value, player: int, window: Frame | None = None) -> bool:
    """The action `value` of `player` started: its frame pushed (and its costs' above). With
    `window` (the frame of the window it was taken in), the run loop's next steps are taken at
    once, as `enter` takes a verb's: its block's first section, and its end when it ended
    without waiting. True when `window` is on top again with nothing pending (it lists again)."""
    index, args, src = value
    prog = st.g.prog
    act = prog.actions[index]
    if act.limit is not None:
        st.used = st.used + [act.used_key(st, player, src, args)]  # (replaced: State.clone)
    env = dict(zip(act.param_names, args)) if args else {}
    env["you"] = player
    if src is None:
        if st.log is not None:
            _note_action(st, act, env, args, player)
        quick = act.quick
        if quick is not None and window is not None and not act.costs:
            frames = st.frames
            if len(frames) < ENTER_DEPTH:
                # its frameless copy: the frame made only where the block waits (`quick_sink`)
                if not quick(st, env, None):
                    return True  # (ended with nothing above: `window` is on top, as below)
                if st.over and frames and frames[-1] is window:
                    # it ended, and so did the game: the framed run leaves its frame, ended,
                    # on top
                    b = act.body
                    frames.append(Frame(b, env, -1, FUNC, None, 0, None, len(prog.blocks[b])))
                return False
    else:
        env["this"] = src
        if st.log is not None:
            _note_action(st, act, env, args, player)
        effect_starts(st, env)  # an object's action: an effect
    frames = st.frames
    if act.costs:  # additional costs are paid first, in the order they were written
        frames.append(Frame(act.body, env, -1, FUNC))
        for lst, cenv in reversed(act.costs_on(st, args, player)):
            frames.append(Frame(lst.body, cenv, -1, FUNC))
        return False
    b = act.body
    if window is None or len(frames) > ENTER_DEPTH:
        frames.append(Frame(b, env, -1, FUNC))
        return False
    n = prog.block_lens[b]
    if n:
        top = _new(Frame)  # (`Frame.__init__` written out: no Python call)
        top.block = b
        top.pc = 1
        top.env = env
        top.ctl = -1
        top.kind = FUNC
        top.items = None
        top.i = 0
        top.extra = None
        frames.append(top)
        prog.block_fns[b](st, top, 0)
        if st.pending is not None or st.over or top.pc < n or not frames or frames[-1] is not top:
            return False
        frames.pop()
    if EFFECT in env:
        effect_ended(st, env)
        if st.pending is not None or st.over:
            return False
        return frames and frames[-1] is window  # type: ignore[return-value]  (falsy when empty)
    return True  # (`window` was on top when the action's frame was pushed above it)


# ---------------------------------------------------------------- verbs, events, triggers


class Call(Stmt):
    """Call a verb or emit an event: before-triggers, the body (or a replacement), after-triggers."""

    __slots__ = ("verb", "args", "END_DIRTY")

    def __init__(self, span, verb, args):
        super().__init__(span)
        self.verb, self.args = verb, args
        self.END_DIRTY = -1  # (the compiler narrows it: build/depends.py `end_writes`)

    def exec(self, st, fr):
        verb = self.verb
        env = {"you": fr.env.get("you")}  # a verb's `you` is its caller's
        for name, arg in zip(verb.param_names, self.args):
            env[name] = arg(st, fr.env)
        if st.log is not None:
            Call.note_call(st, verb, env)
        self.bound(st, env)

    def bound(self, st, env) -> None:
        """The call with its environment bound (`you` and the arguments): by `exec`, or by a
        generated block that computed them itself and noted the call (build/resumable.py
        `_Emitter.heard`), whose caller's frame stays as `exec` leaves it."""
        verb = self.verb
        if not verb.listened:
            call_verb(st, verb, env, self.span)
            return
        # (fewer frames in progress than the limit: fewer events too, nothing to count)
        if len(st.frames) >= MAX_CHAIN and sum(f.kind == EVENT for f in st.frames) >= MAX_CHAIN:
            chain = [st.g.prog.stmts[f.ctl].verb.name for f in st.frames if f.kind == EVENT][-8:]
            raise RulesError(
                f"{self.span}: a chain of triggers did not end after {MAX_CHAIN} nested events "
                f"(last events: {' → '.join(chain)}); rules involved: {', '.join(sorted(set(verb.rule_names(st))))}"
            )
        listeners = verb.listeners
        if listeners.get("before") or listeners.get("instead"):
            self.stages(st, env)
        elif verb.body is not None:
            self.body_then_after(st, verb, env)
        else:
            # an event heard only after it happens, with no block: nothing happens between its
            # start and its `after` stage, so its frame is needed only if a trigger is found
            st.dirty |= self.END_DIRTY
            found = collect(st, listeners.get("after"), env)
            when = listeners.get("when")
            if when:
                found += collect(st, when, env)
            if not found:
                return
            frames = st.frames
            ev = Frame(
                st.g.prog.empty_block, env, self.id, EVENT, None, 0, {"stage": 3, "rep": None}
            )
            frames.append(ev)
            depth = len(frames)
            push_after(st, found)
            if len(frames) == depth and st.pending is None and frames[-1] is ev:
                frames.pop()  # (its last stage: nothing more happens)

    def stages(self, st, env) -> None:
        """An event with `before` listeners or replacements: its frame, and its stages from
        the first."""
        ev = Frame(st.g.prog.empty_block, env, self.id, EVENT, None, 0, {"stage": 0, "rep": None})
        st.frames.append(ev)
        # its stages start now, as the run loop would start them at its next step
        st.dirty |= self.END_DIRTY
        if not self.at_end(st, ev) and st.frames and st.frames[-1] is ev:
            st.frames.pop()

    def body_then_after(self, st, verb, env) -> None:
        """A verb with a block heard only after it: no `before` listener, no replacement, so
        its block starts at once (its stages 0 and 1, as `at_end` takes them). Its frame, at
        stage 2, is put under the block's only when the block waits or leaves others above
        it: while the block runs here nothing reads it (the frames of events are counted for
        `MAX_CHAIN` only, which the levels run here, fewer than `ENTER_DEPTH`, cannot reach
        before theirs are in place; its stage 2 has no replacement applied nor trigger
        declined). When the block ends at once, its `after` triggers are found as at stage 2,
        and its frame made, at its last stage, only when one is found, as an event without a
        block makes it."""
        st.dirty |= self.END_DIRTY
        frames = st.frames
        depth = len(frames)
        top = frames[-1] if frames else None
        body = Frame(verb.body, dict(env), -1, FUNC)
        frames.append(body)
        try:
            enter(st, body)
        except BaseException:  # (a step stopped for a chance outcome: the state as it would be)
            self.event_under(st, env, depth)
            raise
        if len(frames) != depth or st.pending is not None or (frames and frames[-1] is not top):
            self.event_under(st, env, depth)  # the block waits, or started others
            return
        listeners = verb.listeners
        found = collect(st, listeners.get("after"), env)
        when = listeners.get("when")
        if when:
            found += collect(st, when, env)
        if found:
            ev = Frame(
                st.g.prog.empty_block, env, self.id, EVENT, None, 0, {"stage": 3, "rep": None}
            )
            frames.append(ev)
            push_after(st, found)
            if len(frames) == depth + 1 and st.pending is None and frames[-1] is ev:
                frames.pop()  # (its last stage: nothing more happens)

    def event_under(self, st, env, depth: int) -> None:
        """The frame of an event whose block is in progress, at stage 2, put under the block's
        frame (at `depth`) where the general way has it: its stage 2 comes when the block ends."""
        ev = Frame(st.g.prog.empty_block, env, self.id, EVENT, None, 0, {"stage": 2, "rep": None})
        st.frames.insert(depth, ev)

    @staticmethod
    def note_call(st, verb, env) -> None:
        watch = getattr(st.log, "on_call", None)  # a recorder of calls (tools/cardstats.py)
        if watch is not None:
            watch(st, verb, env)
            return
        pairs = [(env.get(p), t) for p, t in zip(verb.param_names, verb.param_types)]
        entry = {"event": verb.name, "args": [label(st, a, t) for a, t in pairs]}
        note(st, seen.mark(entry, [seen.value_seers(st, a, t) for a, t in pairs]))

    def at_end(self, st, fr):
        """The event's next stages, up to one that pushed a frame or asked (True: the frame
        stays) or the last (False)."""
        frames = st.frames
        while True:
            depth = len(frames)
            if not self.stage(st, fr):
                return False
            if len(frames) != depth or st.pending is not None or frames[-1] is not fr:
                return True

    def stage(self, st, fr):
        verb = self.verb
        ex = fr.extra
        stage = ex["stage"]
        ex["stage"] = stage + 1
        if stage == 0:
            lsts = verb.listeners.get("before")
            if lsts:
                push_triggers(st, verb, "before", fr.env)
                return True
            # nobody listens before it: its next stage at once, as at_end would start it
            ex["stage"], stage = 2, 1
        if stage == 1:
            rep = find_replacement(st, verb, fr.env, ex.get("declined"))
            if rep is not None and rep[0].optional is not None:
                # an optional replacement: its player may decline it, and then the next one
                # that applies (or the event's own block) happens
                lst, src, _env = rep
                key = [lst.id, src]
                if not (st.has_answer and ex.get("asking") == key):
                    ex["stage"], ex["asking"] = 1, key
                    who = optional_player(st, lst, _env)
                    ask(st, fr, st.active if who is None else who, optional_prompt(st, lst, src),
                        [USE, DECLINE], "choose", "text", rewind=False)  # fmt: skip
                    return True
                ex["asking"] = None
                if take_answer(st) == DECLINE:
                    note(st, {"declined": lst.rule})
                    ex["stage"] = 1
                    ex["declined"] = (ex.get("declined") or []) + [key]
                    return True
            if rep is not None:
                lst, src, env = rep
                if lst.limit is not None:
                    st.used = st.used + [
                        (lst.id, src if src is not None else -1, scope_name(st, lst.limit))
                    ]
                note(st, {"replaced": verb.name, "by": lst.rule})
                ex["rep"] = [lst.id, src]
                if src is not None:
                    effect_starts(st, env)
                st.frames.append(Frame(lst.body, env, -1, FUNC))
            elif verb.body is not None:
                body = Frame(verb.body, dict(fr.env), -1, FUNC)
                st.frames.append(body)
                enter(st, body)
            return True
        if stage == 2:
            push_triggers(st, verb, "after", fr.env)
            return True
        return False


def call_verb(st: State, verb, env: dict, span) -> None:
    """Start the block of a verb nobody listens to, with its arguments bound in `env` (by
    Call.exec, or by a generated block that computed them itself, resumable.py)."""
    if verb.body is None:
        return
    if len(st.frames) > budget.MAX_FRAMES:
        raise RulesError(
            f"{span}: {verb.name} called with {len(st.frames):,} blocks in"
            " progress (a verb that calls itself without end?)"
        )
    callee = Frame(verb.body, env, -1, FUNC)
    st.frames.append(callee)
    enter(st, callee)


def call_from(st: State, fr: Frame, verb, env: dict, span) -> bool:
    """A generated block's call of a verb that may wait and that nobody listens to (whose
    block is a generated function): its frame pushed and its first section run at once, the
    frame popped if the block ended without waiting. True when the caller must return (a
    decision is pending, the game is over, or the call left frames above the caller's)."""
    frames = st.frames
    if len(frames) >= ENTER_DEPTH:  # deeper, the block waits for the run loop
        if len(frames) > budget.MAX_FRAMES:
            call_verb(st, verb, env, span)  # refused there, with the rules' place
        frames.append(Frame(verb.body, env, -1, FUNC))
        return True
    blk = st.g.prog.blocks[verb.body]
    callee = Frame(verb.body, env, -1, FUNC, None, 0, None, 1)
    frames.append(callee)
    blk[0].fn(st, callee, 0)
    if callee.pc >= len(blk) and st.pending is None and frames[-1] is callee:
        frames.pop()
    return st.pending is not None or st.over or not frames or frames[-1] is not fr


def quick_sink(st: State, block: int, env: dict, n0: int, pc: int, nblk: int) -> bool:
    """The end of a verb's call run without a frame (build/resumable.py `quick_variant`): what
    `call_from` does after the block's first section returned, for a frame that would have
    stood at `n0` with `pc` (true when the caller must return). A block that ended with
    nothing above it leaves no frame; otherwise its frame is put where it would have stood
    (under the frames a check or a call pushed since), as `call_from` would have left it."""
    frames = st.frames
    if pc >= nblk and st.pending is None and len(frames) == n0:
        return st.over
    f = _new(Frame)  # (`Frame.__init__` written out: no Python call)
    f.block = block
    f.pc = pc
    f.env = env
    f.ctl = -1
    f.kind = FUNC
    f.items = None
    f.i = 0
    f.extra = None
    frames.insert(n0, f)
    return True


def quick_hand_over(st: State, block: int, env: dict, n0: int, pc: int, k: int, fn, nblk) -> bool:
    """A verb's call run without a frame that reached a section needing one (a statement's
    object, a call through `call_from`): its frame pushed as `call_from` would have made it,
    section `k` of the block's own function run in it, and `call_from`'s end."""
    frames = st.frames
    caller = frames[-1]
    callee = Frame(block, env, -1, FUNC, None, 0, None, pc)
    frames.append(callee)
    fn(st, callee, k)
    if callee.pc >= nblk and st.pending is None and frames[-1] is callee:
        frames.pop()
    return st.pending is not None or st.over or not frames or frames[-1] is not caller


def push_triggers(st: State, verb, timing: str, args: dict) -> None:
    if timing == "after":
        found = after_triggers(st, verb, args)
        if found:
            push_after(st, found)
        return
    resolve_found(st, collect(st, verb.listeners.get(timing), args))


def after_triggers(st: State, verb, args: dict) -> list:
    """The triggers of an event's `after` and `when` listeners that fire."""
    found = collect(st, verb.listeners.get("after"), args)
    when = verb.listeners.get("when")
    if when:
        found += collect(st, when, args)
    return found


def push_after(st: State, found: list) -> None:
    """Triggers found after an event, in their order, resolved or left to wait (for the
    effect in progress, `settings.effect_waits`, or the end of a `hold:` block)."""
    if len(found) > 1:
        found.sort(key=lambda t: t[3])
    if st.g.prog.effect_waits:
        found = wait_for_effect(st, found)
    if found and st.g.prog.holds:
        held = holding_frame(st)
        if held is not None:  # they wait for the end of the `hold:` block
            # a new list, not extend(): clones share their frames' item lists
            held.items = held.items + [
                [lst.id, src, env, _plain(key)] for lst, src, env, key in found
            ]
            return
    resolve_found(st, found)


def wait_for_effect(st: State, found: list) -> list:
    """`settings.effect_waits`: the triggers of those tiers met while an effect is resolving
    wait in the environment of the outermost effect's block until it has finished (a draw
    caused during an effect resolves after it); the others go on."""
    waits = st.g.prog.effect_waits
    later = [t for t in found if t[1] is not None and t[0].tier in waits]
    if not later:
        return found
    fx = next((f for f in st.frames if EFFECT in f.env), None)
    if fx is None:
        return found
    # a new list: clones share their frames' environments' values
    fx.env[WAITING] = fx.env.get(WAITING, []) + [
        [lst.id, src, env, _plain(key)] for lst, src, env, key in later
    ]
    return [t for t in found if not (t[1] is not None and t[0].tier in waits)]


def _plain(key):
    """A trigger's order key as it reads back from a save (lists, not tuples)."""
    return [_plain(k) for k in key] if isinstance(key, (tuple, list)) else key


def holding_frame(st: State):
    stmts = st.g.prog.stmts
    for f in reversed(st.frames):
        if f.ctl >= 0 and f.kind == SCOPE and type(stmts[f.ctl]) is Hold:
            return f
    return None


def resolve_found(st: State, found: list) -> None:
    """Put triggered abilities on the stack so that the first of `found` resolves first."""
    policy = st.g.prog.settings.get("trigger_order")
    if len(found) > 1 and policy in ("chosen", "by_owner"):
        # The objects' triggers wait in OrderTriggers frames: a chooser picks the next one each
        # time the previous one has resolved. The rules' own triggers resolve first. `chosen`:
        # one frame, one chooser; `by_owner`: a frame per owner, from the active player on, each
        # owner ordering their own.
        objs = [t for t in found if t[1] is not None]
        if len(objs) > 1:
            for lst, src, _env, _ in objs:
                if lst.limit is not None:
                    st.used = st.used + [(lst.id, src, scope_name(st, lst.limit))]
            groups: list[tuple[tuple, list]] = []
            for lst, src, env, _ in objs:
                # by tier (settings.trigger_tiers), then by owner under `by_owner`
                who = (lst.tier, st.obj_owner[src] if policy == "by_owner" else -1)
                if not groups or groups[-1][0] != who:
                    groups.append((who, []))
                groups[-1][1].append([lst.id, src, env])
            prog = st.g.prog
            if prog.batch_hold is not None and len({who[1] for who, _ in groups}) > 1:
                # `new_triggers_wait`: triggers fired while these resolve wait under them until
                # the last owner's have resolved (a TCG's "the other player's effects first")
                st.frames.append(Frame(prog.empty_block, {}, prog.batch_hold.id, SCOPE, [], 0))
            for (_tier, who), items in reversed(groups):  # the first group ends on top of the stack
                st.frames.append(
                    Frame(st.g.prog.empty_block, {}, st.g.prog.order_triggers.id, BLOCK, items, who)
                )
            found = [t for t in found if t[1] is None]
    for lst, src, env, _ in reversed(found):
        if lst.limit is not None:
            st.used = st.used + [
                (lst.id, src if src is not None else -1, scope_name(st, lst.limit))
            ]
        if st.log is not None:
            entry = {
                "trigger": lst.rule,
                "source": label(st, src, "object") if src is not None else None,
            }
            note(st, seen.mark(entry, [seen.object_seers(st, src)]))
        if src is not None:
            effect_starts(st, env)  # an object's ability: an effect
        st.frames.append(Frame(lst.body, env, -1, FUNC))


USE, DECLINE = "use", "decline"  # the options of an optional trigger or replacement


def optional_player(st: State, lst, env: dict):
    """Who is asked about an optional trigger or replacement: `by PLAYER`, else `you`."""
    return lst.optional_by(st, env) if lst.optional_by is not None else env.get("you")


def optional_prompt(st: State, lst, src) -> str:
    if lst.optional:
        return lst.optional
    return (label(st, src, "object") + ": " if src is not None else "") + lst.short


class SourceStays(Stmt):
    """The head of an object's triggered ability when the ruleset says `source_must_remain`:
    the ability does nothing if its source changed zones after it triggered. An object: it may
    leave its frame."""

    __slots__ = ()

    def exec(self, st, fr):
        at = fr.env.get("@at")
        if at is None:
            return
        src = fr.env.get("this")
        if st.obj_zone[src] != at[0] or st.obj_moves[src] != at[1]:
            if st.log is not None:
                entry = {"fizzled": label(st, src, "object")}
                note(st, seen.mark(entry, [seen.object_seers(st, src)]))
            unwind(st, (FUNC,), inclusive=True)
            recount_checks(st)


class AskOptional(Stmt):
    """The head of an optional trigger's block: its player may use it or decline it. The
    trigger's condition is tested again first: an earlier trigger may have made it false."""

    __slots__ = ("lst",)

    def __init__(self, span, lst):
        super().__init__(span)
        self.lst = lst

    def exec(self, st, fr):
        env = fr.env
        lst = self.lst
        src = env.get("this") if lst.origin != "global" else None
        event = next((f for f in reversed(st.frames) if f.kind == EVENT), None)
        if st.has_answer:
            if take_answer(st) == DECLINE:
                note(st, {"declined": lst.rule})
                if event is not None:  # the other copies of the card will not ask again
                    ex = event.extra
                    ex["declined"] = (ex.get("declined") or []) + [[lst.id, src]]
                unwind(st, (FUNC,), inclusive=True)
                recount_checks(st)
            return
        declined = event.extra.get("declined") if event is not None else None
        if (lst.cond is not None and not lst.cond(st, env)) or (
            declined and was_declined(st, declined, lst, src)
        ):
            unwind(st, (FUNC,), inclusive=True)
            recount_checks(st)
            return
        who = optional_player(st, lst, env)
        ask(st, fr, st.active if who is None else who, optional_prompt(st, lst, src),
            [USE, DECLINE], "choose", "text")  # fmt: skip


class OrderTriggers(Stmt):
    """Triggers that fired together, under `trigger_order: chosen` or `by_owner`: each time,
    the chooser picks which one resolves next: the frame's `i` (the owner, under `by_owner`), or
    with `i` = -1 `settings.trigger_chooser`, else `first_player`."""

    __slots__ = ("END_DIRTY",)

    def __init__(self, span):
        super().__init__(span)
        self.END_DIRTY = -1  # (the compiler narrows it: build/depends.py `end_writes`)

    def exec(self, st, fr):  # pragma: no cover - owns frames only
        pass

    def at_end(self, st, fr):
        items = fr.items
        if st.has_answer:
            v = list(take_answer(st))
            k = next(i for i, it in enumerate(items) if [it[0], it[1]] == v)
        elif not items:
            return False
        elif len(items) == 1 or all(
            it[0] == items[0][0] and st.obj_card[it[1]] == st.obj_card[items[0][1]] for it in items
        ):
            k = 0  # one left, or copies of one card with the same ability: nothing to tell apart
        else:
            who = fr.i if fr.i >= 0 else st.g.prog.trigger_chooser(st)  # by_owner: the owner
            ask(st, fr, st.first if who is None else who, "trigger order",
                [[it[0], it[1]] for it in items], "choose", "trigger", rewind=False)  # fmt: skip
            return True
        lid, src, env = items[k]
        fr.items = items[:k] + items[k + 1 :]
        lst = st.g.prog.listener_by_id[lid]
        if st.log is not None:
            entry = {"trigger": lst.rule, "source": label(st, src, "object")}
            note(st, seen.mark(entry, [seen.object_seers(st, src)]))
        st.frames.append(Frame(lst.body, effect_starts(st, dict(env)), -1, FUNC))
        return True


def find_replacement(st: State, verb, args: dict, declined=None):
    """The first replacement that applies and was not declined (its player said no)."""
    lsts = verb.listeners.get("instead")
    if not lsts:
        return None
    applied = {
        tuple(f.extra["rep"])
        for f in st.frames
        if f.kind == EVENT and f.extra and f.extra.get("rep")
    }
    for lst, src, env, _ in collect(st, lsts, args):
        if (lst.id, src) not in applied and not (declined and was_declined(st, declined, lst, src)):
            return lst, src, env
    return None


def was_declined(st: State, declined: list, lst, src) -> bool:
    """Declined for this event: this replacement of this source, or of another copy of its card
    (the copies ask the same question)."""
    for lid, s in declined:
        if lid == lst.id and (
            s == src or (s is not None and src is not None and st.obj_card[s] == st.obj_card[src])
        ):
            return True
    return False


def objects_by_card(st: State) -> dict[int, list[int]]:
    """The objects of cards with abilities of their own (`_ability_cards`: no other card is
    looked up) where those are in force, grouped by card, in zone order: one pass serves every
    ability of a card, so cards loaded but not in play cost nothing. Kept with the windows'
    plans (`State.kw`), written in place when an object of one of those cards comes or goes
    where its abilities are in force (`present_moved`), found again when an active zone is
    shuffled or loses an object: callers only read it (and hold it only while nothing moves)."""
    kw = st.kw
    if kw is None:
        kw = st.kw = (_ability_cards(st.g), {}, {})
    present = kw[1].get(PRESENT)
    if present is None:
        present = kw[1][PRESENT] = _objects_by_card(st)
    elif st.g.prog.verify_checks and present != _objects_by_card(st):
        raise AssertionError("an object of a card with abilities moved without forgetting kw")
    return present


def _listeners_present(st: State) -> dict[int, list[int]] | bool:
    """The objects in force by card for `collect`'s card listeners: `objects_by_card` when it
    is kept, or when windows list cards' own actions (they make it again after every move of
    such a card anyway); else False, and each listener's card's objects are found by
    `card_objects` (a map of every card made for one or two cards costs more)."""
    kw = st.kw
    if kw is not None:
        got = kw[1].get(PRESENT)
        if got is not None:
            return got if not st.g.prog.verify_checks else objects_by_card(st)
    return objects_by_card(st) if _cards_act(st.g) else False


def _cards_act(g) -> bool:
    """Per program: whether some action is a card's own (windows then list the objects
    present; kept in `Game.laid`)."""
    got = g.laid.get(CARDS_ACT)
    if got is None:
        got = g.laid[CARDS_ACT] = any(a.origin == "card" for a in g.prog.actions)
    return got


CARDS_ACT = ("cards' actions",)  # the key of `_cards_act` in `Game.laid`
BY_CARD = ("objects by card, any zone",)  # the key of `card_objects`' index in `State.ko`


def card_objects(st: State, card: int) -> list:
    """The objects of `card` in any zone, in order of creation: one index of every object by
    card, kept in `State.ko` beside effects.cards_objects' lists, which hold while no object is
    made and no object's card changes (a clone shares it: it holds for both until then)."""
    ko = st.ko
    if ko is None:
        ko = kept_by_cards(st)
    index = ko.get(BY_CARD)
    if index is None:
        index = ko[BY_CARD] = {}
        for o, c in enumerate(st.obj_card):
            got = index.get(c)
            if got is None:
                index[c] = [o]
            else:
                got.append(o)
    elif st.g.prog.verify_checks and index.get(card, []) != [
        o for o, c in enumerate(st.obj_card) if c == card
    ]:
        raise AssertionError("an object was made or its card changed without emptying State.ko")
    return index.get(card, ())


def _objects_by_card(st: State) -> dict[int, list[int]]:
    present: dict[int, list[int]] = {}
    obj_card = st.obj_card
    zones = st.zones
    g = st.g
    for z, cards in _zone_cards(g):
        for o in zones[z]:
            c = obj_card[o]
            if c in cards:
                lst = present.get(c)
                if lst is None:
                    present[c] = [o]
                else:
                    lst.append(o)
    return present


def _zone_cards(g) -> list:
    """Per program and layout (`Game.laid`): each active zone with the cards with abilities
    whose abilities are in force there (`Game.card_zones`), those without any left out."""
    got = g.laid.get(PRESENT)
    if got is None:
        cards = _ability_cards(g)
        czones = g.card_zones
        got = []
        for z in g.active_zones:
            here = cards if czones is None else frozenset(c for c in cards if z in czones[c])
            if here:
                got.append((z, here))
        g.laid[PRESENT] = got
    return got


def in_force_of(st: State, objs: list) -> list:
    """Those of `objs` whose abilities are in force where they are (effects.in_force)."""
    if not objs:
        return objs
    zone = st.obj_zone
    card_zones = st.g.card_zones
    if card_zones is None:
        active = st.g.active_set
        return [o for o in objs if zone[o] in active]
    card = st.obj_card
    return [o for o in objs if zone[o] in card_zones[card[o]]]


def collect(st: State, lsts, args: dict) -> list:
    """The listeners that fire, each with its source object, environment and order key."""
    if not lsts:
        return []
    g = st.g
    heard = g.heard
    if heard is not None:  # cards' listeners bound to their own object: the named one's only
        plan = heard.get(id(lsts))
        if plan is not None and plan[0] is lsts:
            lsts = plan[1]
            for name, by_card in plan[2]:
                o = args.get(name)
                if o is not None:
                    mine = by_card.get(st.obj_card[o])
                    if mine is not None:
                        lsts = lsts + mine
    prog = g.prog
    out = []
    active = st.active
    policy = None  # (the order of what fires, found at the first that does)
    present = None  # the objects in force by card (False: each card's own, `card_objects`)
    for lst in lsts:
        origin = lst.origin
        if origin == "global":
            sources = [None]
        elif origin == "card" and lst.self_arg is not None:
            # `after E(this)`: the object E names, when it is of the card and in force there
            # (as if found among the objects present by card, without finding them)
            o = args.get(lst.self_arg)
            if o is None or st.obj_card[o] != lst.card_index or not in_force(st, o):
                continue
            sources = (o,)
        elif origin == "card":
            if present is None:
                present = _listeners_present(st)
            if present is False:  # its card's objects, those in force: no map of every card
                sources = in_force_of(st, card_objects(st, lst.card_index))
            else:
                sources = present.get(lst.card_index, ())
        else:  # (in any order: `out` is sorted by the sources' places)
            cards = printing_cards(st, lst.owner)
            if cards is not None:  # the objects of the cards that print it, those in force
                sources = in_force_of(st, cards_objects(st, cards))
            else:
                sources = [o for o in acting(st) if lst.applies_to(st, o)]
            if lst.self_arg is not None and sources:  # `after E(this)`: the object E names only
                o = args.get(lst.self_arg)
                sources = (o,) if o is not None and o in sources else ()
        limit = lst.limit
        for src in sources:
            if (
                limit is not None
                and (lst.id, src if src is not None else -1, scope_name(st, limit)) in st.used
            ):
                continue
            env = {}
            for bind, pname in zip(lst.binds, lst.param_names):
                env[bind] = args.get(pname)
            if src is not None:
                env["this"] = src
                env["you"] = st.obj_owner[src]
                lst.bind_params(st, src, env)
                if prog.source_must_remain:  # where it was when it triggered (SourceStays)
                    env["@at"] = [st.obj_zone[src], st.obj_moves[src]]
            else:
                env["you"] = active
            if lst.cond is not None and not lst.cond(st, env):
                continue
            owner = env["you"]
            if policy is None:
                policy = prog.settings.get("trigger_order", "active_first")
                n = g.nplayers
            if policy in ("active_first", "by_owner"):
                order = ((owner - active) % n, prog.zone_order(st, src), lst.id)
            elif policy == "turn_order":
                order = ((owner - st.first) % n, prog.zone_order(st, src), lst.id)
            else:  # timestamp: the oldest source first (objects are numbered as created)
                order = (-1 if src is None else src, lst.id)
            if prog.tiers:  # settings.trigger_tiers: a tier's triggers before the next tier's
                order = (lst.tier if src is not None else -1,) + order
            out.append((lst, src, env, order))
    if len(out) > 1:
        out.sort(key=lambda t: t[3])
    return out


# A list of listeners is split (`_heard_plan`) when at least this many are cards' listeners
# bound to their own object: finding the split costs about as much as going through two.
HEARD_SPLIT = 3


def heard_plans(prog) -> dict | None:
    """By the id of each list of an event's or verb's listeners worth splitting, its
    `_heard_plan`; None if none is (`Game.heard`, made once per program by setup)."""
    plans = {}
    for verb in prog.verbs.values():
        for lsts in verb.listeners.values():
            plan = _heard_plan(lsts)
            if plan is not lsts:
                plans[id(lsts)] = plan
    return plans or None


def _heard_plan(lsts: list) -> list | tuple:
    """`collect`'s listeners `lsts` split: (them, those that are not a card's bound to its own
    object, those by the event's parameter naming it and by card); or `lsts` itself if fewer
    than `HEARD_SPLIT` are bound. Such a listener fires only for the named object, of its
    card: an event many cards listen to that way (each for its own object) then goes through
    the named object's card's only. Which listeners fire, and their order (sorted by
    `collect`'s keys), are the same. The lists are the program's, complete once it plays."""
    rest, bound = [], {}
    for lst in lsts:
        if lst.origin == "card" and lst.self_arg is not None:
            bound.setdefault(lst.self_arg, {}).setdefault(lst.card_index, []).append(lst)
        else:
            rest.append(lst)
    if len(lsts) - len(rest) < HEARD_SPLIT:
        return lsts
    return lsts, rest, tuple(bound.items())


def _check_domain(st: State, chk) -> list:
    items = chk.over(st, {})
    return items if isinstance(items, list) else st.zones[items][:]


def _kept_domain(st: State, chk) -> list:
    """A check's domain that reads only zones and the players still in: kept in the game's
    points with this state while none of its zones changed (their bits, `State.zdirty`, as
    run_checks gathers them) and the same players are in; without its zones by name, until
    any zone changes (`State.zone_kept`)."""
    kept = st.g.kept_points
    plan = kept.get("plan")
    if plan is None:
        plan = kept["plan"] = game_plan(st.g)
    mask = plan[2].get(chk.bit)
    if mask is None:
        return st.zone_kept(("check domain", chk.id, tuple(st.lost)), _check_domain, chk)
    return _domain_at(st, chk, kept, ("domain", chk.bit), mask)


def _domain_at(st: State, chk, kept: dict, key: tuple, mask: int) -> list:
    """A check's domain kept in point `key` of `kept` while none of its zones (bits `mask`)
    changed and the same players are in."""
    pt = kept.get(key)
    if pt is not None and pt[0] is st and not (pt[1] | st.zdirty) & mask and pt[2] == st.lost:
        if st.g.prog.verify_checks and pt[3] != _check_domain(st, chk):
            raise AssertionError(f"the kept domain of check {chk.name} is stale")
        return pt[3]
    items = _check_domain(st, chk)
    kept[key] = [st, 0, list(st.lost), items]
    return items


class Check:
    """A state check: after every atomic action, run its body for each case where it holds."""

    __slots__ = (
        "id", "var", "over", "cond", "body", "name", "bit", "reads", "zones", "zoned",
        "domain_zones", "marked_zones",
    )  # fmt: skip
    END_DIRTY = 0  # its end only counts the checks in progress

    def __init__(self, name, var, over, cond, body, bit=-1):
        self.name, self.var, self.over, self.cond, self.body = name, var, over, cond, body
        self.id = -1
        self.bit = bit
        # what its condition reads (depends.py's tokens) when it may be kept false from one
        # state to another equal in those (run_checks); None: evaluated whenever due
        self.reads = None
        # the zones it reads, by name (depends.check_zones; "@active": the active zones): the
        # state is equal in its zones when these hold the same objects. None: when no zone
        # changed at all (the state's memo of its zones, `State.zmemo`)
        self.zones = None
        # its domain reads only zones (and the players still in): kept until a zone changes,
        # or, when these are its zones by name, until one of them changes (`_kept_domain`)
        self.zoned = False
        self.domain_zones: frozenset | None = None
        # the zones by name that an object leaving or entering makes it due (move_object: a
        # `move` statement's mask holds only the zones it names, build/depends.py)
        self.marked_zones: frozenset = frozenset()

    def _envs(self, st: State) -> list[dict]:
        if self.var is None:
            return [{}]
        if self.zoned:
            items = _kept_domain(st, self)
        else:
            items = _check_domain(st, self)
        return [{self.var: x} for x in items]

    def fire(self, st: State) -> bool:
        """Start the check's block for each case where it holds; whether any did."""
        if self.var is not None:
            return self.fire_over(
                st, _kept_domain(st, self) if self.zoned else _check_domain(st, self)
            )
        env: dict = {}
        if not self.cond(st, env):
            return False
        self._start(st, env)
        return True

    def fire_over(self, st: State, items: list) -> bool:
        """`fire` over the items of its domain (run_checks finds a domain kept by its zones)."""
        fired = False
        var, cond = self.var, self.cond
        for x in items:
            env = {var: x}
            if cond(st, env):
                fired = True
                self._start(st, env)
        return fired

    def _start(self, st: State, env: dict) -> None:
        st.checking += 1
        if st.log is not None:
            note(st, {"check": self.name})
        st.frames.append(Frame(self.body, env, self.id, CHECK))

    def verify_quiet(self, st: State) -> None:
        """For tests (`Program.verify_checks`): a check that was not due must be false."""
        for env in self._envs(st):
            if self.cond(st, env):
                raise AssertionError(
                    f"state check {self.name} holds but was not due: a statement's writes"
                    " were missed (build/depends.py)"
                )

    def at_end(self, st, fr):
        st.checking -= 1
        return False
