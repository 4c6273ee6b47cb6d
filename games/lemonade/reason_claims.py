"""Reading the figures a stand's reason states about its past, in English and Chinese.

A deliberately simple heuristic, an indicator rather than ground truth (like bargain's
honesty ledger): it reads only what is plainly stated and skips anything it is unsure of,
so it misses claims rather than inventing them. :mod:`games.lemonade.reason_audit` checks
what it finds against the stand's record.

**Clauses and time.** A reason is cut into sentences (``. ; ! ? 。 ； ！ ？``, a decimal
point excepted) and each sentence into clauses (commas, and joining words such as
*so, but, and, because, 所以, 但, 因为*). A clause is about:

* a **past day** when it names one: *yesterday* / *yesterday's* / *the previous day* /
  *the day before* / *昨天* / *昨日* / *前一天* / *上一天* (the day before this morning), *the
  day before yesterday* / *前天* (two days back), *大前天* (three), or *day N* / *第N天*;
* **the season so far** when it says *so far, to date, in total, total, overall,
  altogether, cumulative, 累计, 总共, 一共, 至今, 迄今, 到目前为止, 合计* or *总* before a figure
  word (*总利润*);
* **today** when it says *today, this morning, now, 今天, 今日, 目前, 现在, 当前*;
* **a plan** when it has a word of the future or of a condition (*will, 'll, would,
  should, could, plan, expect, aim, target, hope, forecast, predict, estimate, want, try,
  tomorrow, next, if, unless, 预计, 预期, 预测, 估计, 计划, 打算, 将, 会, 希望, 目标, 争取, 如果,
  假如, 若, 明天, 之后, 以后, 想, 应该, 可能*): "I'll sell 90 today" and "预计卖出90杯" are plans
  and are never checked;
* **today's decision** when it has a verb of deciding (*raise, lower, cut, keep, set,
  make, produce, sell, switch, 提价, 降价, 保持, 维持, 调整, 定为, 多做*): "raised the price to
  3.5 after yesterday's sellout" speaks of today's price, so only cash is read in it;
* or a span (*the last 3 days*, *the last three days*, *this week*, *最近3天*, *前三天*),
  which is not checked either.

A clause without a time word of its own takes the one of the clause before it in the same
sentence ("Yesterday, I sold 90 cups, wasted 5" is two claims about yesterday; in
"I sold 70 yesterday, so today I'll make 90" the second clause is a plan). A clause about
the other stands (*rival, competitor, others, they, stand b, b, 对手, 其他, 他们*) is not
about this stand's record and is skipped.

**Figures.** In a clause about a past day: cups *sold* (*sold, sales, 卖了, 卖出, 售出, 销量*),
cups *made* (*made, produced, production, 生产, 做了, 制作, 产量*), cups *wasted* (*wasted,
waste, threw away, left over, unsold, 浪费, 剩了, 剩下, 剩余, 扔掉, 倒掉, 没卖完*), the *price*
(*price, priced, charged, at/for 3.50, 价格, 定价, 售价, 单价, 每杯*), the *revenue* (*revenue,
income, takings, turnover, 收入, 营业额, 销售额, 营收*), the *profit* (*profit, 利润, 盈利, 赚了*;
a *loss / lost / 亏了 / 亏损* of x is a profit of -x), *cash* (*cash, balance, funds, 现金,
余额, 资金*; cash at the end of that day) and the *weather* (*sunny, cloudy, overcast,
rain, 晴, 多云, 阴, 雨*, not negated: "wasn't sunny" is skipped). Over the season so far:
sold, made, wasted, revenue and profit. About today, about today's decision, or with no
time word at all, only cash (this morning's) and the weather (today's forecast; without a
time word only when the clause says *weather* or *天气*: "天气晴" is read, "rainy days sell
less" is not).

A figure is the first number after its word (within 30 characters and before the next
figure word), or a number just before it: right before ("92 sales"), or with its unit and
only *were/was/的* between ("90 cups were sold", "5杯浪费"). *at* or *for* and a number is
a price only if it could be one (at most 6.00, or "each"): "for 128 yuan" is not. The unit
decides what a number is: "sold 90 cups" is cups sold, "卖3.5元一杯" a price, "卖了300元"
revenue; numbers of people, degrees, days, percentages
and multiples are never figures, and words such as *traffic, customers, cost,
temperature, 客流, 成本* take their number so it is not misread. Only Arabic digits are
read (full-width ones included): a reason without digits states no figure, though it
may still state the weather.

**Hedges.** *about, around, roughly, nearly, ~, 约, 大约, 大概, 左右, 将近* mark an
approximate figure; *more than, over, at least, 超过, 至少, 以上, 90多, 90+* a lower bound;
*less than, under, at most, 不到, 少于, 以下* an upper bound. The audit's tolerances use them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from games.lemonade.rules import MAX_PRICE

SOLD, MADE, WASTE, PRICE, REVENUE, PROFIT, CASH, WEATHER = (
    "sold",
    "made",
    "wasted",
    "price",
    "revenue",
    "profit",
    "cash",
    "weather",
)
COUNT_KINDS = frozenset({SOLD, MADE, WASTE})
"""Figures that are whole numbers of cups."""
TOTAL_KINDS = frozenset({SOLD, MADE, WASTE, REVENUE, PROFIT})
"""Figures that add up over the season ("so far")."""

AGO, DAY, TOTAL, NOW, TODAY = "ago", "day", "total", "now", "today"
"""What a claim is about: ``AGO`` n days before the decision, ``DAY`` n, the season ``TOTAL``
so far, cash ``NOW`` (this morning) or ``TODAY``'s forecast."""

_FUTURE, _SPAN, _ACT = "future", "span", "act"


@dataclass(frozen=True, slots=True)
class Claim:
    """One figure a reason states, as written."""

    kind: str
    when: str
    """``AGO``, ``DAY``, ``TOTAL``, ``NOW`` or ``TODAY``."""
    n: int
    """Days back for ``AGO``, the day number for ``DAY``, else 0."""
    value: float | str
    """The number (cups or yuan), or the weather (``sunny``, ``cloudy``, ``rainy``)."""
    relation: str = "="
    """``=`` as written, ``~`` approximate, ``>=`` a lower bound, ``<=`` an upper bound."""
    step: float = 0.5
    """Half a unit of the last digit written (0.5 for 90, 0.05 for 12.5): rounding allowance."""
    text: str = ""
    """The clause the figure was read from, as the reason wrote it (untrusted)."""


# -- text ------------------------------------------------------------------------------------

_FULL_WIDTH = str.maketrans(
    "０１２３４５６７８９．，：％＄￥～＋－",
    "0123456789.,:%$¥~+-",
)
_SENTENCE = re.compile(r"(?<!\d)\.|\.(?!\d)|[;!?\n。；！？]")
_CLAUSE = re.compile(
    r"(?<!\d),|,(?!\d{3}(?!\d))|，"
    r"|\b(?:and so|and then|and|so(?! far)|but|therefore|thus|hence|then|while|whereas|because|since"
    r"|although|though)\b"
    r"|所以|因此|因为|但是|但|不过|然而|而且|而|于是|然后|并且|同时"
)

# Time words, one pattern (longest alternatives first, so "day before yesterday" wins over
# "yesterday"); a group's name says which kind of time it is.
_TIME = re.compile(
    r"(?P<ago3>大前天)"
    r"|(?P<ago2>\b(?:the )?day before yesterday(?:'s)?|前天)"
    r"|(?P<span>\b(?:the )?(?:last|past|previous|first|over the last|over the past)\s+"
    r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|few|several|couple of)\s+days?\b"
    r"|\bthis week\b|(?:最近|近|过去|前|头)\s*(?:\d+|[两二三四五六七八九十几])\s*(?:天|日))"
    r"|(?P<total>\bso far\b|\bto date\b|\bin total\b|\btotal\b|\boverall\b|\baltogether\b"
    r"|\bcumulative(?:ly)?\b|累计|总共|一共|至今|迄今|到目前为止|目前为止|合计|总计"
    r"|总(?=利润|收入|销量|营业额|销售额|盈利|浪费|产量))"
    r"|(?P<ago1>\byesterday(?:'s)?|\b(?:the )?previous day(?:'s)?|\bthe day before\b|\blast night\b"
    r"|昨天|昨日|昨|前一天|上一天)"
    r"|(?P<day>\bdays?\s*#?\s*(?P<day_n>\d+)\b|第\s*(?P<day_zh>\d+)\s*(?:天|日))"
    r"|(?P<today>\btoday(?:'s)?\b|\bthis morning\b|\bnow\b|今天|今日|目前|现在|当前)"
    r"|(?P<future>\b(?:will|would|should|could|shall|might|going to|gonna|plan(?:s|ned|ning)?"
    r"|expect(?:s|ed|ing|ation)?|aim(?:s|ing)?|target(?:s|ing)?|hop(?:e|es|ing)|forecast(?:s|ed)?"
    r"|predict(?:s|ed|ion)?|estimat(?:e|es|ed|ion)|project(?:ed|ion)|anticipat(?:e|es|ed)|intend(?:s|ed)?"
    r"|want|try|tomorrow|next|if|unless|assuming|goal)\b|'ll\b|'d\b"
    r"|预计|预期|预测|预估|估计|计划|打算|将(?!近)|会|希望|目标|争取|如果|假如|若|要是|明天|之后|以后"
    r"|期望|想|力争|应该|可能)"
    r"|(?P<act>\b(?:rais(?:e|ed|es|ing)|lower(?:ed|s|ing)?|cut(?:s|ting)?|increas(?:e|ed|es|ing)"
    r"|decreas(?:e|ed|es|ing)|set(?:s|ting)?|keep(?:s|ing)?|kept|maintain(?:s|ed|ing)?|hold(?:s|ing)?"
    r"|stay(?:s|ing)?|stick|switch(?:es|ed|ing)?|adjust(?:s|ed|ing)?|bump(?:s|ed|ing)?|make|making"
    r"|produce|producing|sell|selling|go|going|choose|choosing|chose|opt|offer(?:s|ing)?|run(?:ning)?)\b"
    r"|提价|降价|涨价|提高|降低|增加|减少|保持|维持|调整|改为|改成|定为|多做|少做)"
)

# Figure words. A name ending in "_kw" reads a figure of that kind; "other" takes a number
# (traffic, customers, cost, temperature) so no figure word misreads it.
_FIGURE = re.compile(
    r"(?P<revenue_kw>\brevenue\b|\bincome\b|\btakings\b|\bturnover\b|\bbrought in\b|\btook in\b"
    r"|收入|营业额|销售额|营收|进账)"
    r"|(?P<profit_kw>\bprofits?\b|利润|盈利|净赚|赚了|挣了|赚)"
    r"|(?P<loss_kw>\blos(?:s|t|ing)\b(?: of)?|亏了|亏损|赔了|亏)"
    r"|(?P<sold_kw>\bsold\b(?! out)|\bsales?\b"
    r"|卖出了?|卖掉了?|卖了|售出了?|销量(?:为|是|有)?|销售了?(?!额)|卖(?!完|价))"
    r"|(?P<made_kw>\bmade\b|\bproduced\b|\bproduction\b|\bbrewed\b|\bprepared\b"
    r"|生产了?|制作了?|做了|产量(?:为|是)?)"
    r"|(?P<waste_kw>\bwast(?:ed|e|age)\b|\bthr(?:ew|own) (?:away|out)\b|\bleft ?over\b|\bleftovers?\b"
    r"|\bunsold\b|\bspoiled\b|\bdiscarded\b|浪费了?|剩下了?|剩了|剩余|扔掉了?|倒掉了?|没卖完|未售出|损耗)"
    r"|(?P<price_kw>\bpric(?:e|ed|es|ing)\b|\bcharg(?:e|ed|es|ing)\b"
    r"|价格|定价|售价|单价|价钱|卖价|每杯)"
    r"|(?P<at_kw>\b(?:at|for)\b(?=\s*[¥$]?\s*\d))"
    r"|(?P<cash_kw>\bcash\b|\bbalance\b|\bfunds\b|\bmoney\b|现金|余额|资金|账上|手头|手上)"
    r"|(?P<other>\btraffic\b|\bcustomers?\b|\bpeople\b|\bvisitors\b|\bdemand\b|\btemperature\b"
    r"|\bdegrees\b|\bcosts?\b|\bingredients?\b|\bmargin\b|\bmarkup\b|\bsigns?\b"
    r"|客流|顾客|人流|需求|温度|气温|成本|原料|毛利率|利润率)"
)
_WEATHER_WORDS = re.compile(
    r"(?P<sunny>\bsunny\b|\bsunshine\b|\bsun\b|晴(?:天|朗)?|阳光)"
    r"|(?P<cloudy>\bcloudy\b|\bclouds?\b|\bovercast\b|多云|阴(?:天)?)"
    r"|(?P<rainy>\brain(?:y|ed|ing|fall)?\b|\bshowers?\b|\bdrizzle\b|下雨|雨(?:天)?)"
)
_OTHERS = re.compile(
    r"\b(?:rivals?|competitors?|competition|others|the other|other stands?|another stand|they|their|them"
    r"|neighbou?rs?|(?:stand|seat)\s+[a-h])\b|\b[b-h]\b|对手|竞争|其他|别的|别家|他们|对方|邻居|[a-h]摊"
)
_WEATHER_WORD = re.compile(r"\bweather\b|天气")
_NEGATED_WEATHER = re.compile(
    r"(?:\bnot|n't|\bno|\bnever|\bwithout|不是|不|没有|没|并非|非)\s*(?:[a-z]+\s+)?(?:a\s+)?$"
)

_NUMBER = re.compile(r"(?<![a-z\d.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?!\d)")
_UNIT = re.compile(
    r"\s*(?:(?P<skip>%|percent\b|x\b|倍|°|degrees?\b|度|c\b|people\b|persons?\b|customers?\b"
    r"|visitors?\b|人|位|days?\b|天|日|号|am\b|pm\b|点|times\b|次)"
    r"|(?P<count>cups?\b|glasses?\b|servings?\b|杯|份)"
    r"|(?P<money>yuan\b|rmb\b|元|块(?:钱)?|¥))?"
    r"(?P<each>\s*(?:/\s*(?:cup|glass|杯)|per (?:cup|glass)\b|a (?:cup|glass)\b|each\b|一杯|每杯))?"
)
_CURRENCY_BEFORE = re.compile(r"[¥$]\s*-?$")
_APPROX_BEFORE = re.compile(
    r"(?:\babout|\baround|\broughly|\bapproximately|\bapprox\.?|\bnearly|\balmost|\bclose to|\bsome"
    r"|~|约|大约|大概|差不多|将近|近)\s*[¥$]?\s*-?$"
)
_ATLEAST_BEFORE = re.compile(r"(?:\bmore than|\bover|\babove|\bat least|超过|不少于|至少|逾)\s*[¥$]?\s*-?$")
_ATMOST_BEFORE = re.compile(
    r"(?:\bless than|\bfewer than|\bunder|\bbelow|\bat most|\bup to|不到|不足|少于|至多|最多)\s*[¥$]?\s*-?$"
)
_APPROX_AFTER = re.compile(r"\s*(?:左右|上下)")
_ATLEAST_AFTER = re.compile(r"\s*(?:多|余|以上|\+|or more\b)")
_ATMOST_AFTER = re.compile(r"\s*(?:以下|以内|or (?:less|fewer)\b)")
_FILLER = re.compile(r"\s*(?:(?:were|was|are|is|got|been|in|of)\s*)*(?:的|被|都|已经?|共)?\s*$")

_TRIGGER_WORDS = (
    "yesterday",
    "previous day",
    "day before",
    "last night",
    "so far",
    "to date",
    "total",
    "overall",
    "altogether",
    "cumulative",
    "today",
    "this morning",
    "now",
    "weather",
)
_CASH_WORDS = ("cash", "balance", "funds", "money")
_TRIGGER_DAY = re.compile(r"days?\s*#?\s*\d")
_TRIGGER_CASH = re.compile(
    r"(?:cash|balance|funds|money)[^\d.;!?]{0,30}\d"  # a figure reads up to 30 characters on
    r"|\d\s*(?:yuan|rmb|¥)?\s*(?:in |of |worth of )?(?:cash|balance|funds|money)"
)
_TRIGGER_CHINESE = re.compile(r"[昨前第累总一至迄目合今现当余资账手天]")


def may_claim(reason: str) -> bool:
    """Whether ``reason`` has what every claim needs: a quick first look before the full read.

    That is a time word, the weather word, or a cash word with a number next to it ("all the
    cash pays for" states no figure). Plain substring tests first: Python's regular
    expressions try an alternation of words at every position, several times slower on a
    typical reason. The scripted stands' reasons never pass (a test says so), so for them the
    audit costs this look and no more.
    """
    if not reason.isascii() and _TRIGGER_CHINESE.search(reason):
        return True
    lowered = reason.lower()
    for word in _TRIGGER_WORDS:
        if word in lowered:
            return True
    if _TRIGGER_DAY.search(lowered):
        return True
    for word in _CASH_WORDS:
        if word in lowered:
            return _TRIGGER_CASH.search(lowered) is not None
    return False


@dataclass(slots=True)
class _Number:
    start: int
    end: int
    value: float
    decimals: int
    unit: str
    """``count``, ``money``, ``each`` (money per cup) or ``""`` (no unit)."""
    relation: str
    used: bool = False


@functools.lru_cache(maxsize=4096)
def claims_in(reason: str) -> tuple[Claim, ...]:
    """The claims ``reason`` makes (pure text: the same reason always reads the same).

    Cached: scripted stands repeat their reasons from day to day and episode to episode.
    """
    return read_claims(reason) if may_claim(reason) else ()


def read_claims(reason: str) -> tuple[Claim, ...]:
    """The claims ``reason`` makes, read in full (:func:`claims_in` first takes a quick look)."""
    text = reason.translate(_FULL_WIDTH)
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer: quote the lowered text
        text = lowered
    claims: list[Claim] = []
    for sentence_start, sentence_end in _pieces(_SENTENCE, lowered, 0, len(lowered)):
        carried: tuple[str, int] | None = None
        for start, end in _pieces(_CLAUSE, lowered, sentence_start, sentence_end):
            carried = _read_clause(lowered[start:end], text[start:end].strip(), carried, claims)
    return tuple(claims)


def _pieces(pattern: re.Pattern[str], text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans between ``pattern``'s matches in ``text[start:end]`` (empty ones dropped)."""
    spans, at = [], start
    for match in pattern.finditer(text, start, end):
        spans.append((at, match.start()))
        at = match.end()
    spans.append((at, end))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _read_clause(
    clause: str, quoted: str, carried: tuple[str, int] | None, claims: list[Claim]
) -> tuple[str, int] | None:
    """Add the clause's claims to ``claims``; return the time the next clause inherits."""
    own, masked = _times(clause)
    time = own if own is not None else carried
    if _OTHERS.search(clause):  # about the other stands (shared street), not this one's record
        return time
    if time is None or time[0] == _ACT:
        # No time word, or today's decision ("raising the price"): only this morning's cash, and
        # the weather if the clause says "weather".
        _read_figures(clause, quoted, masked, (NOW, 0), claims, allowed={CASH})
        if _WEATHER_WORD.search(clause):
            _read_weather(clause, quoted, (TODAY, 0), claims)
    elif time[0] == TODAY:
        _read_figures(clause, quoted, masked, (NOW, 0), claims, allowed={CASH})
        _read_weather(clause, quoted, time, claims)
    elif time[0] == TOTAL:
        _read_figures(clause, quoted, masked, time, claims, allowed=TOTAL_KINDS | {CASH})
    elif time[0] in (AGO, DAY):
        _read_figures(clause, quoted, masked, time, claims, allowed=None)
        _read_weather(clause, quoted, time, claims)
    return time  # a plan or a span reads nothing, and so does a clause that inherits it


def _times(clause: str) -> tuple[tuple[str, int] | None, list[tuple[int, int]]]:
    """The clause's own time (``None`` if it names none) and the spans its time words cover.

    A word of the future or a span wins over any day named beside it (*I expected to sell
    90 yesterday* is not a claim); two different days in one clause are too unclear to read.
    """
    found: list[tuple[str, int]] = []
    masked: list[tuple[int, int]] = []
    for match in _TIME.finditer(clause):
        masked.append(match.span())
        kind = match.lastgroup
        if kind in ("ago1", "ago2", "ago3"):
            found.append((AGO, int(kind[-1])))
        elif kind == "day":
            found.append((DAY, int(match.group("day_n") or match.group("day_zh"))))
        elif kind is not None:
            found.append((kind, 0))
    if not found:
        return None, masked
    kinds = {kind for kind, _ in found}
    if _FUTURE in kinds:
        return (_FUTURE, 0), masked
    if _SPAN in kinds:
        return (_SPAN, 0), masked
    if _ACT in kinds:
        return (_ACT, 0), masked
    days = {time for time in found if time[0] in (AGO, DAY, TOTAL)}
    if len(days) > 1:
        return (_SPAN, 0), masked
    if days:
        return days.pop(), masked
    return (TODAY, 0), masked


def _numbers(clause: str, masked: list[tuple[int, int]]) -> list[_Number]:
    numbers = []
    for match in _NUMBER.finditer(clause):
        start, end = match.span()
        if any(a <= start < b for a, b in masked):
            continue
        whole, fraction = match.group(1).replace(",", ""), match.group(2) or ""
        value = float(f"{whole}.{fraction}" if fraction else whole)
        if start > 0 and clause[start - 1] == "-" and (start < 2 or not clause[start - 2].isalnum()):
            value = -value
        unit_match = _UNIT.match(clause, end)
        assert unit_match is not None  # every part is optional
        if unit_match.group("skip"):
            continue
        before = clause[max(0, start - 16) : start]
        unit = "count" if unit_match.group("count") else ""
        if unit_match.group("money") or _CURRENCY_BEFORE.search(before):
            unit = "money"
        if unit_match.group("each"):
            unit = "each"
        after = unit_match.end()
        relation = "="
        if _APPROX_BEFORE.search(before) or _follows(_APPROX_AFTER, clause, end, after):
            relation = "~"
        elif _ATLEAST_BEFORE.search(before) or _follows(_ATLEAST_AFTER, clause, end, after):
            relation = ">="
        elif _ATMOST_BEFORE.search(before) or _follows(_ATMOST_AFTER, clause, end, after):
            relation = "<="
        numbers.append(_Number(start, after, value, len(fraction), unit, relation))
    return numbers


def _follows(pattern: re.Pattern[str], clause: str, *ends: int) -> bool:
    """Whether ``pattern`` matches right after the number or right after its unit ("90多杯", "90杯以上")."""
    return any(pattern.match(clause, end) for end in ends)


_MONEY_WORDS = {"revenue": REVENUE, "profit": PROFIT, "loss": PROFIT, "cash": CASH}


def _figure_kind(word: str, number: _Number) -> str | None:
    """What ``number`` is when it goes with figure word ``word`` (``None``: not a figure of it)."""
    unit, whole = number.unit, number.decimals == 0
    if word == "sold":
        if unit == "each":
            return PRICE
        if unit == "money":
            return REVENUE
        return SOLD if whole else None
    if word == "made":
        return MADE if unit in ("count", "") and whole else None
    if word == "waste":
        return WASTE if unit in ("count", "") and whole else None
    if word == "price":
        return PRICE if unit != "count" else None
    if word == "at":  # "at 3.50", "for 3.5 each": a price only if it can be one ("for 128 yuan" is not)
        return PRICE if unit == "each" or (unit in ("", "money") and number.value <= MAX_PRICE) else None
    if word in _MONEY_WORDS:
        return _MONEY_WORDS[word] if unit in ("money", "") else None
    return None


def _read_figures(
    clause: str,
    quoted: str,
    masked: list[tuple[int, int]],
    time: tuple[str, int],
    claims: list[Claim],
    *,
    allowed: frozenset[str] | set[str] | None,
) -> None:
    """Figures after (or just before) their words, kept if ``allowed`` (``None``: all) has their kind."""
    numbers = _numbers(clause, masked)
    if not numbers:
        return
    words = [
        (match.lastgroup.removesuffix("_kw"), match.start(), match.end())
        for match in _FIGURE.finditer(clause)
        if match.lastgroup is not None and not any(a <= match.start() < b for a, b in masked)
    ]
    found: dict[int, tuple[str, _Number]] = {}
    for index, (word, _, end) in enumerate(words):
        limit = min(words[index + 1][1] if index + 1 < len(words) else len(clause), end + 30)
        after = next((n for n in numbers if end <= n.start < limit and not n.used), None)
        if after is None:
            continue
        kind = _figure_kind(word, after)
        if kind is not None:
            after.used = True
            found[index] = (kind, after)
        elif word == "other":
            after.used = True  # traffic, customers, cost: their number is no figure of another word
    for index, (word, start, _) in enumerate(words):
        if index in found or word == "other":
            continue
        floor = words[index - 1][2] if index > 0 else 0
        before = next(
            (n for n in reversed(numbers) if floor <= n.start and n.end <= start and not n.used), None
        )
        if before is None:
            continue
        between = clause[before.end : start]
        if not _FILLER.match(between):
            continue
        kind = _figure_kind(word, before)
        wanted = ("count",) if kind in COUNT_KINDS else ("money", "each")
        # With words between ("90 cups were sold") the number needs its unit; right before ("92 sales") not.
        if kind is not None and (before.unit in wanted or (not between.strip() and before.unit == "")):
            before.used = True
            found[index] = (kind, before)
    when, n = time
    for index in sorted(found):
        kind, number = found[index]
        if allowed is not None and kind not in allowed:
            continue
        value = -number.value if words[index][0] == "loss" else number.value
        claim_when, claim_n = (NOW, 0) if kind == CASH and when == TOTAL else (when, n)
        step = 0.5 if kind in COUNT_KINDS else 0.5 / 10**number.decimals
        relation = number.relation
        if words[index][0] == "loss" and relation in (
            ">=",
            "<=",
        ):  # a loss of at least 5 is a profit of at most -5
            relation = "<=" if relation == ">=" else ">="
        claims.append(Claim(kind, claim_when, claim_n, value, relation, step, quoted))


def _read_weather(clause: str, quoted: str, time: tuple[str, int], claims: list[Claim]) -> None:
    """The weather the clause names for its day, if it names exactly one and does not negate it."""
    named = {
        match.lastgroup
        for match in _WEATHER_WORDS.finditer(clause)
        if match.lastgroup is not None
        and not _NEGATED_WEATHER.search(clause[max(0, match.start() - 12) : match.start()])
    }
    if len(named) == 1:
        claims.append(Claim(WEATHER, time[0], time[1], named.pop(), text=quoted))
