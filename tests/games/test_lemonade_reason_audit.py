"""The lemonade reason audit: the figures a reason states, read in English and Chinese and checked."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.lemonade import LemonadeState
from games.lemonade.baselines import BASELINES
from games.lemonade.prompt import history_line
from games.lemonade.reason_audit import Finding, ReasonAudit, check
from games.lemonade.reason_claims import claims_in, may_claim, read_claims
from games.lemonade.rules import LemonadeDecision
from tests.support.gamekit import new_lemonade, observed, render_text

ZH_WEATHER = {"sunny": "晴", "cloudy": "多云", "rainy": "下雨"}
OTHER_WEATHER = {"sunny": "rainy", "cloudy": "sunny", "rainy": "cloudy"}


def three_days() -> LemonadeState:
    """Seed 3 after three set days (a discount on day 2): the morning of day 4, which is rainy."""
    game = new_lemonade(3, days=10)
    for promotion, produce in (("none", 40), ("discount", 55), ("none", 110)):
        game.apply(
            {s: LemonadeDecision(price=3.2, produce=produce, promotion=promotion) for s in game.pending()}
        )
    yesterday = game.stands["a"].records[-1]
    assert game.day == 4 and game.today.weather == "rainy"
    assert 0 < yesterday["waste"] < yesterday["sold"] < yesterday["produce"]  # three different numbers
    assert game.stands["a"].records[1]["promotion_cost"] == 5.0
    return game


GAME = three_days()


def findings(reason: str, game: LemonadeState = GAME, seat: str = "a") -> list[Finding]:
    """What the audit makes of ``reason`` given by ``seat`` this morning."""
    stand = game.stands[seat]
    return check(claims_in(reason), game.day, stand.records, stand.cash, game.today.weather)


def yesterday(field: str) -> Any:
    return GAME.stands["a"].records[-1][field]


def day(number: int, field: str) -> Any:
    return GAME.stands["a"].records[number - 1][field]


Value = Callable[[], Any]
# (reason template, kind, the true value, a false one): each is checked with both values.
CASES: list[tuple[str, str, Value, Value]] = [
    ("Yesterday I sold {} cups, so I will make more.", "sold", lambda: yesterday("sold"),
     lambda: yesterday("sold") + 20),
    ("yesterday's sales {}", "sold", lambda: yesterday("sold"), lambda: yesterday("sold") - 7),
    ("昨天卖了{}杯，今天多做一些", "sold", lambda: yesterday("sold"), lambda: yesterday("sold") + 20),
    ("昨日售出 {} 杯", "sold", lambda: yesterday("sold"), lambda: 90),
    ("I made {} cups yesterday", "made", lambda: yesterday("produce"), lambda: yesterday("produce") + 1),
    ("昨天生产了{}杯", "made", lambda: yesterday("produce"), lambda: yesterday("produce") - 10),
    ("Yesterday I wasted {} cups.", "wasted", lambda: yesterday("waste"), lambda: yesterday("waste") + 5),
    ("昨天浪费了{}杯", "wasted", lambda: yesterday("waste"), lambda: 0),
    ("Yesterday's price was {:.2f}.", "price", lambda: yesterday("price"), lambda: yesterday("price") + 1),
    ("昨天定价{}元", "price", lambda: yesterday("price"), lambda: 2.5),
    ("Cash is {:.2f} yuan", "cash", lambda: GAME.stands["a"].cash, lambda: GAME.stands["a"].cash + 25.5),
    ("现金 {} 元", "cash", lambda: GAME.stands["a"].cash, lambda: 12.5),
    ("Yesterday's revenue was {} yuan.", "revenue", lambda: yesterday("revenue"), lambda: 315),
    ("昨天收入{}元", "revenue", lambda: yesterday("revenue"), lambda: yesterday("revenue") * 2),
    ("Yesterday's profit was {:.2f}", "profit", lambda: yesterday("revenue") - yesterday("cost"),
     lambda: 150),
    ("昨天利润{:.2f}元", "profit", lambda: yesterday("revenue") - yesterday("cost"), lambda: 150),
    ("On day 2 I sold {} cups", "sold", lambda: day(2, "sold"), lambda: day(2, "sold") + 3),
    ("第1天卖了{}杯", "sold", lambda: day(1, "sold"), lambda: day(1, "sold") + 3),
    ("Day 2 profit {:.2f}: the signs cost 5", "profit", lambda: day(2, "revenue") - day(2, "cost") - 5,
     lambda: day(2, "revenue")),
    ("Total profit so far {:.2f}", "profit", lambda: GAME.stands["a"].cash - 50, lambda: 999),
    ("累计卖出{}杯", "sold", lambda: sum(r["sold"] for r in GAME.stands["a"].records), lambda: 10),
    ("Yesterday was {}.", "weather", lambda: yesterday("weather"),
     lambda: OTHER_WEATHER[yesterday("weather")]),
    ("昨天天气{}", "weather", lambda: ZH_WEATHER[yesterday("weather")],
     lambda: ZH_WEATHER[OTHER_WEATHER[yesterday("weather")]]),
    ("天气{}，客流少", "weather", lambda: ZH_WEATHER[GAME.today.weather],
     lambda: ZH_WEATHER[OTHER_WEATHER[GAME.today.weather]]),
    ("The weather today is {}", "weather", lambda: GAME.today.weather,
     lambda: OTHER_WEATHER[GAME.today.weather]),
]  # fmt: skip


@pytest.mark.parametrize(("template", "kind", "true_value", "false_value"), CASES)
def test_each_kind_of_claim_is_read_and_checked(
    template: str, kind: str, true_value: Value, false_value: Value
) -> None:
    for value, truth in ((true_value(), True), (false_value(), False)):
        reason = template.format(value)
        found = findings(reason)
        assert [(f.kind, f.ok) for f in found] == [(kind, truth)], reason
        assert found[0].text in reason


def test_a_false_claim_keeps_the_claimed_and_the_true_value() -> None:
    sold = yesterday("sold")
    (found,) = findings(f"Yesterday's sales {sold + 20}, so I raise the price")
    assert (found.claimed, found.actual, found.ok) == (sold + 20, sold, False)
    assert found.about == "yesterday (day 3)" and found.text == f"Yesterday's sales {sold + 20}"
    assert found.summary() == f"sold yesterday (day 3): said {sold + 20}, was {sold}"


def test_several_figures_in_one_reason() -> None:
    r = GAME.stands["a"].records[-1]
    reason = (
        f"Yesterday was {r['weather']}: sold {r['sold']} of {r['produce']} cups at {r['price']:.2f} each, "
        f"wasted {r['waste'] + 1}. Cash now {GAME.stands['a'].cash:.2f}, traffic about 90."
    )
    found = findings(reason)
    assert sorted((f.kind, f.ok) for f in found) == [
        ("cash", True),
        ("price", True),
        ("sold", True),
        ("wasted", False),
        ("weather", True),
    ]


@pytest.mark.parametrize(
    ("reason", "truth", "expected"),
    [
        # A figure is the true value rounded to the digits written (either way at an exact half).
        ("cash 12.5", 12.47, True),
        ("cash 12", 12.47, True),
        ("cash 12.47", 12.47, True),
        ("cash 12.4", 12.47, False),
        ("cash 13", 12.47, False),
        ("cash 12.50", 12.47, False),
        ("现金 12.5 元", 12.45, True),
        ("现金 12.5 元", 12.55, True),
        ("现金 12.5 元", 12.56, False),
        # Hedged: about = within 10%, bounds hold on their side.
        ("cash about 100", 109.0, True),
        ("cash about 100", 91.0, True),
        ("cash about 100", 111.0, False),
        ("cash about 100", 89.0, False),
        ("cash over 100", 100.4, True),
        ("cash over 100", 99.0, False),
        ("cash under 100", 99.0, True),
        ("现金不到100元", 101.0, False),
        ("现金100元左右", 95.0, True),
    ],
)
def test_tolerances(reason: str, truth: float, expected: bool) -> None:
    (found,) = check(claims_in(reason), 1, [], truth, "sunny")
    assert found.ok is expected, (reason, truth)


def test_counts_of_cups_are_exact_unless_hedged() -> None:
    sold = yesterday("sold")
    assert [f.ok for f in findings(f"sold {sold + 1} cups yesterday")] == [False]
    assert [f.ok for f in findings(f"sold about {sold + 1} cups yesterday")] == [True]
    assert [f.ok for f in findings(f"sold about {round(sold * 1.3)} cups yesterday")] == [False]
    assert [f.ok for f in findings(f"sold more than {sold - 10} cups yesterday")] == [True]
    assert [f.ok for f in findings(f"sold more than {sold + 10} cups yesterday")] == [False]
    assert [f.ok for f in findings(f"昨天卖了{sold // 10 * 10}多杯")] == [True]
    assert [f.ok for f in findings(f"昨天卖了{sold + 10}多杯")] == [False]


def test_a_profit_with_or_without_the_signs_is_true_and_a_loss_is_a_negative_profit() -> None:
    gross = round(day(2, "revenue") - day(2, "cost"), 2)
    assert [f.ok for f in findings(f"day 2 profit {gross - 5:.2f}")] == [True]  # signs counted
    assert [f.ok for f in findings(f"day 2 profit {gross:.2f}")] == [True]  # signs left out
    assert [f.ok for f in findings(f"day 2 profit {gross + 5:.2f}")] == [False]
    (loss,) = findings("yesterday I lost 10 yuan")
    assert (loss.kind, loss.claimed, loss.ok) == ("profit", -10.0, False)
    (loss_zh,) = findings("昨天亏了10元")
    assert (loss_zh.claimed, loss_zh.ok) == (-10.0, False)


def test_a_day_before_day_one_has_no_record() -> None:
    game = new_lemonade(3, days=10)
    (found,) = findings("昨天卖了90杯", game)
    assert (found.ok, found.actual, found.about) == (False, None, "yesterday (before day 1)")
    assert found.summary() == "sold yesterday (before day 1): said 90, no such day was played"
    assert [f.ok for f in findings("Cash is 50.00 and it is sunny today", game)] == [True, True]


@pytest.mark.parametrize(
    "reason",
    [
        "",
        "Raising the price: it is sunny and the traffic is high.",
        "rainy days sell less, so fewer cups",
        "雨天应该降价",
        "sunny day with traffic 112: price 3.50, expect about 90 cups, make 90",
        "Price 3.50 and 80 cups.",
        "fallback: base price, average production of the last three days, no promotion",
        "Yesterday wasn't sunny.",
        "昨天不是晴天",
        "Yesterday was sunny or cloudy, I forget.",
        "Rival b charged 2.50 yesterday and sold a lot.",
        "对手昨天定价2.5元",
        "Over the last 3 days I sold 200 cups.",
        "最近3天卖了200杯",
        "Yesterday's traffic 120 and 29C, ingredient cost 1.80 per cup",
        "Yesterday 50% of the street's customers came to me",
    ],
)
def test_reasons_without_a_checkable_claim(reason: str) -> None:
    assert findings(reason) == []


@pytest.mark.parametrize(
    "reason",
    [
        "I'll sell 90 today",
        "Expect to sell 90 cups at 3.50.",
        "预计卖出90杯",
        "今天卖90杯",
        "预计利润为 150 元",
        "Today: price 3.50, make 90 cups, aiming for a profit of 150.",
        "If yesterday's trend holds I will sell 90 cups.",
        "Tomorrow I plan to make 100 cups.",
        "On day 9 I'll have 500 yuan in cash",
        "Day 7: sell 80 cups",
        "明天打算生产100杯",
    ],
)
def test_plans_are_not_claims(reason: str) -> None:
    assert findings(reason) == []


def test_a_plan_after_a_claim_is_skipped_and_a_claim_after_a_comma_keeps_its_day() -> None:
    sold, waste = yesterday("sold"), yesterday("waste")
    found = findings(f"Yesterday, I sold {sold} cups, wasted {waste}, so today I'll make {sold + 20}.")
    assert [(f.kind, f.claimed, f.ok) for f in found] == [("sold", sold, True), ("wasted", waste, True)]
    found_zh = findings(f"昨天卖了{sold}杯，浪费了{waste}杯，所以今天做{sold + 20}杯")
    assert [(f.kind, f.ok) for f in found_zh] == [("sold", True), ("wasted", True)]


def test_a_day_quoted_from_the_prompt_is_read_in_full_and_true() -> None:
    for record in GAME.stands["a"].typed:
        line = history_line(record)  # "day 2: cloudy, 23C, traffic 132, cost 1.80, price 3.20, ..."
        found = findings(f"As the record says, {line}.")
        assert sorted(f.kind for f in found) == ["cash", "made", "price", "sold", "wasted", "weather"], line
        assert all(f.ok and f.about == f"day {record.day}" for f in found), line


def test_todays_decision_is_not_a_claim_but_its_cash_is() -> None:
    cash = GAME.stands["a"].cash
    for reason in (
        "raised price to 3.5 from 3.2 after yesterday's sellout",
        "Keeping price 3.50 as yesterday sold out",
        "昨天卖得好，提价到3.5元",
    ):
        assert findings(reason) == [], reason
    assert [(f.kind, f.ok) for f in findings(f"Cash of {cash:.2f} lets me make up to 78 cups")] == [
        ("cash", True)
    ]
    sold = yesterday("sold")
    # "for 128 yuan" is no price (prices stop at 6.00); "92 sales" is cups sold.
    assert [f.kind for f in findings(f"sold {sold} cups for 128 yuan yesterday")] == ["sold"]
    assert [(f.kind, f.ok) for f in findings(f"Price 3.2 yesterday gave {sold} sales")] == [
        ("price", True),
        ("sold", True),
    ]


def test_full_width_digits_and_punctuation_are_read() -> None:
    sold = str(yesterday("sold")).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    assert [f.ok for f in findings(f"昨天卖了{sold}杯。")] == [True]


CORPUS = [template.format(value()) for template, _, *values in CASES for value in values] + [
    "sold 90 cups yesterday",
    "day 3 cash 80",
    "第2天利润20元",
    "so far I sold 300 cups",
    "今天现金100元",
]


def test_the_quick_look_skips_cash_without_a_number() -> None:
    assert not may_claim("cut to 12 because that is all the cash pays for")
    assert not may_claim("make 30 (all the cash pays for)")
    assert may_claim("all the cash, 12.50, pays for 6 cups")


def test_the_quick_look_never_skips_a_reason_with_a_claim() -> None:
    for reason in [*CORPUS, "I have 118 yuan cash", "Cash of 118.00 lets me make up to 78 cups", "cash: 50"]:
        assert read_claims(reason), reason
        assert may_claim(reason), reason


def test_the_scripted_stands_state_no_claims() -> None:
    # Their reasons speak of today's plan only; this is also why their golden results read 0.
    for name, cls in BASELINES.items():
        for seed in range(4):
            player = cls(random.Random(seed))
            game = new_lemonade(seed, stands=2, market="shared" if seed % 2 else "identical", days=30)
            while not game.over():
                decisions: dict[str, LemonadeDecision] = {}
                for seat in game.pending():
                    view = type(game.observation(seat)).model_validate(observed(game, seat))
                    decision = decisions[seat] = player.choose(view)
                    # Not even read in full: the quick look is all the audit costs a scripted stand.
                    assert not may_claim(decision.reason), (name, decision.reason)
                game.apply(decisions)
            assert all(game.audit.metrics(seat) == {"claims": 0, "false_claims": 0} for seat in game.seats)


def lying_game(days: int = 4) -> LemonadeState:
    """Seat a claims 999 cups sold yesterday every morning (never true); seat b states no figure."""
    game = new_lemonade(5, days=days)
    while not game.over():
        game.apply(
            {
                "a": LemonadeDecision(price=3.0, produce=20, reason="Yesterday I sold 999 cups!"),
                "b": LemonadeDecision(price=3.0, produce=20, reason="steady"),
            }
        )
    return game


def test_the_counts_are_seat_metrics_and_survive_the_json_round_trip() -> None:
    game = lying_game()
    metrics = {seat: result.metrics for seat, result in game.result().items()}
    assert {k: metrics["a"][k] for k in ("claims", "false_claims")} == {"claims": 4, "false_claims": 4}
    assert {k: metrics["b"][k] for k in ("claims", "false_claims")} == {"claims": 0, "false_claims": 0}
    data = game.to_json()
    assert data["reason_audit"]["a"]["false_claims"] == 4
    assert len(data["reason_audit"]["a"]["examples"]) == 4
    again = LemonadeState.from_json(game.definition, data)
    assert again.to_json() == data and again.result()["a"].metrics == metrics["a"]
    assert "reason_audit" not in new_lemonade(5).to_json()  # a state without claims reads as before


def test_at_most_five_examples_are_kept() -> None:
    audit = lying_game(days=9).audit.seats["a"]
    assert (audit.claims, audit.false_claims, len(audit.examples)) == (9, 9, 5)
    assert [f.day for f in audit.examples] == [1, 2, 3, 4, 5]
    assert audit.latest_day == 9 and [f.day for f in audit.latest] == [9]


def test_an_old_state_without_the_audit_still_loads() -> None:
    data = lying_game().to_json()
    del data["reason_audit"]
    state = LemonadeState.from_json(GAME.definition, data)
    assert state.audit.metrics("a") == {"claims": 0, "false_claims": 0}
    assert ReasonAudit.from_json(("a",), None).metrics("a") == {"claims": 0, "false_claims": 0}


def test_the_full_view_and_the_step_outcome_show_the_findings_literally() -> None:
    game = new_lemonade(5, days=3)
    sneaky = "[bold red]Yesterday I sold 999 cups[/bold red]\x1b[2J"
    game.apply(
        {
            "a": LemonadeDecision(price=3.0, produce=20, reason="plain"),
            "b": LemonadeDecision(price=3.0, produce=20),
        }
    )
    sold = game.stands["a"].records[-1]["sold"]
    game.apply(
        {
            "a": LemonadeDecision(price=3.0, produce=20, reason=sneaky),
            "b": LemonadeDecision(price=3.0, produce=20, reason=f"yesterday I sold {sold} cups"),
        }
    )
    full = render_text(game, None, width=200)
    assert "reason audit" in full
    assert "a: 1 figures checked, 1 false" in full and "b: 1 figures checked, 0 false" in full
    assert f"FALSE: sold yesterday (day 1): said 999, was {sold}" in full
    assert "[bold red]Yesterday I sold 999 cups[/bold red]^[[2J" in full  # markup and escapes literal
    assert "\x1b" not in full
    for seat in game.seats:
        assert "reason audit" not in render_text(game, seat, width=200)  # a seat is not told
    view = game.definition.view
    outcome_a, outcome_b = view.step_outcome(game, "a") or "", view.step_outcome(game, "b") or ""
    assert outcome_a.endswith(
        f"; reason: 1 of 1 stated figures false (sold yesterday (day 1): said 999, was {sold})"
    )
    assert outcome_b.endswith("; reason: 0 of 1 stated figures false")
    game.apply({s: LemonadeDecision(price=3.0, produce=20, reason="no figures") for s in game.seats})
    assert "reason" not in (view.step_outcome(game, "a") or "")  # the latest reason stated nothing
    assert "earlier: day 2 FALSE" in render_text(game, None, width=200)
