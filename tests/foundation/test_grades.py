"""The Go grade value type, its database field and form field, and each system's conversions."""

from __future__ import annotations

import pytest
from django import forms
from django.core import serializers
from django.core.exceptions import ValidationError
from hypothesis import assume, given
from hypothesis import strategies as st

from clubsite.fields import GradeField, GradeFormField, parse_grade
from clubsite.models import Member
from ratings.systems import egf
from ratings.systems.grades import ALL_GRADES, Grade
from ratings.systems.ufgo import grades as ufgo_grades
from tests.factories import ClubFactory, MemberFactory, ParticipantFactory

grades = st.sampled_from(ALL_GRADES)
WORDS = {"k": ["k", "kyu"], "d": ["d", "dan"], "p": ["p", "pro"]}


def by_text(text: str) -> Grade:
    return next(g for g in ALL_GRADES if str(g) == text)


# --- the value type -------------------------------------------------------------------


def test_scale_is_30k_to_9p() -> None:
    assert len(ALL_GRADES) == 30 + 9 + 9
    assert [str(g) for g in ALL_GRADES[:2]] == ["30k", "29k"]
    assert [str(g) for g in ALL_GRADES[29:31]] == ["1k", "1d"]
    assert [str(g) for g in ALL_GRADES[38:40]] == ["9d", "1p"]
    assert str(ALL_GRADES[-1]) == "9p"


@given(grades)
def test_parse_of_str_is_identity(grade: Grade) -> None:
    assert Grade.parse(str(grade)) == grade
    assert parse_grade(str(grade)) == grade


@given(grades)
def test_rank_round_trip(grade: Grade) -> None:
    assert Grade.from_rank(grade.rank) == grade
    assert parse_grade(grade.rank) == grade


@given(
    grades,
    st.sampled_from([0, 1]),
    st.text(alphabet=" \t", max_size=3),
    st.text(alphabet=" ", max_size=2),
    st.text(alphabet=" \t\n", max_size=3),
    st.booleans(),
)
def test_parse_any_spelling(
    grade: Grade, word: int, before: str, middle: str, after: str, upper: bool
) -> None:
    suffix = WORDS[grade.kind][word]
    text = f"{before}{grade.level}{middle}{suffix.upper() if upper else suffix}{after}"
    assert Grade.parse(text) == grade


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5k", "5k"),
        ("5 kyu", "5k"),
        ("5K", "5k"),
        ("5 KYU", "5k"),
        ("3 Dan", "3d"),
        ("3d", "3d"),
        ("2p", "2p"),
        ("2 pro", "2p"),
        (" 7d ", "7d"),
        ("30k", "30k"),
        ("9p", "9p"),
    ],
)
def test_parse_examples(text: str, expected: str) -> None:
    assert str(Grade.parse(text)) == expected
    assert str(parse_grade(text)) == expected


@pytest.mark.parametrize(
    "text", ["0k", "31k", "0d", "10d", "0p", "10p", "abc", "5", "k", "5x", "5 kyuu", "-1k", "1.5d"]
)
def test_parse_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        Grade.parse(text)
    with pytest.raises(ValidationError) as caught:
        parse_grade(text)
    assert caught.value.code == "invalid_grade"


@pytest.mark.parametrize("value", [-30, 19, 100, True, 5.5, object()])
def test_parse_grade_refuses_other_values_as_validation_errors(value: object) -> None:
    with pytest.raises(ValidationError):
        parse_grade(value)


@pytest.mark.parametrize(("kind", "level"), [("k", 0), ("k", 31), ("d", 10), ("p", 0), ("p", 10)])
def test_grade_cannot_be_built_off_the_scale(kind: str, level: int) -> None:
    with pytest.raises(ValueError):
        Grade(kind, level)  # type: ignore[arg-type]


def test_blank_is_no_grade() -> None:
    assert parse_grade(None) is None
    assert parse_grade("") is None


@given(grades, grades)
def test_order_is_rank_order(a: Grade, b: Grade) -> None:
    assert (a < b) == (a.rank < b.rank)
    assert (a <= b) == (a.rank <= b.rank)
    assert (a > b) == (a.rank > b.rank)
    assert (a == b) == (a.rank == b.rank)


@given(st.lists(grades))
def test_sorting_follows_strength(values: list[Grade]) -> None:
    assert [g.rank for g in sorted(values)] == sorted(g.rank for g in values)


def test_all_grades_weakest_first() -> None:
    assert list(ALL_GRADES) == sorted(ALL_GRADES)
    assert by_text("30k") < by_text("1k") < by_text("1d") < by_text("9d") < by_text("1p")
    assert by_text("5k") < by_text("4k")
    assert by_text("9d") < by_text("1p") < by_text("9p")


def test_grade_is_hashable_and_frozen() -> None:
    assert len({Grade.parse("5k"), Grade.parse("5 kyu"), Grade("k", 5)}) == 1
    with pytest.raises(AttributeError):
        Grade.parse("5k").level = 4  # type: ignore[misc]


# --- GradeField in the database -------------------------------------------------------


@pytest.mark.django_db
def test_every_grade_stored_and_reloaded() -> None:
    club = ClubFactory()
    members = Member.objects.bulk_create(
        Member(family_name=f"M{g.rank}", club=club, grade=g) for g in ALL_GRADES
    )
    members.append(MemberFactory(club=club, grade=None))
    reloaded = {m.family_name: m.grade for m in Member.objects.filter(club=club)}
    for grade in ALL_GRADES:
        assert reloaded[f"M{grade.rank}"] == grade
        assert isinstance(reloaded[f"M{grade.rank}"], Grade)
    assert None in reloaded.values()


def test_read_ranks_are_the_grades_and_an_off_scale_one_is_refused() -> None:
    field = GradeField()
    assert [field.from_db_value(g.rank, None, None) for g in ALL_GRADES] == list(ALL_GRADES)
    with pytest.raises(ValueError, match="no such grade"):
        field.from_db_value(99, None, None)


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["5 kyu", "5K", -4, Grade("k", 5)])
def test_any_spelling_saved_as_the_grade(value: object) -> None:
    member = MemberFactory(grade=value)
    member.refresh_from_db()
    assert member.grade == Grade("k", 5)


@pytest.mark.django_db
def test_stored_as_rank_integer() -> None:
    from django.db import connection

    member = MemberFactory(grade="3d")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT grade FROM {Member._meta.db_table} WHERE id = %s", [member.pk])
        assert cursor.fetchone()[0] == 3


@pytest.mark.django_db
def test_database_orders_and_range_filters() -> None:
    club = ClubFactory()
    Member.objects.bulk_create(
        Member(family_name=str(g), club=club, grade=g) for g in reversed(ALL_GRADES)
    )
    in_club = Member.objects.filter(club=club)
    assert list(in_club.order_by("grade").values_list("grade", flat=True)) == list(ALL_GRADES)
    assert list(in_club.order_by("-grade").values_list("grade", flat=True))[0] == by_text("9p")

    dans_and_up = in_club.filter(grade__gte="1d").order_by("grade")
    assert [str(m.grade) for m in dans_and_up][:2] == ["1d", "2d"]
    assert dans_and_up.count() == 18
    assert in_club.filter(grade__gte=Grade("d", 1)).count() == 18
    assert in_club.filter(grade__lt="1d").count() == 30
    assert in_club.filter(grade__range=("5k", "2d")).count() == 7
    assert in_club.filter(grade__lte="10k", grade__gte="12 kyu").count() == 3
    assert in_club.filter(grade="3 dan").get().family_name == "3d"
    assert in_club.filter(grade__in=["1p", "9p", Grade("k", 30)]).count() == 3


@pytest.mark.django_db
def test_range_filter_matches_python_order_for_every_pair() -> None:
    club = ClubFactory()
    Member.objects.bulk_create(Member(family_name=str(g), club=club, grade=g) for g in ALL_GRADES)
    in_club = Member.objects.filter(club=club)
    for low in ALL_GRADES:
        above = {m.family_name for m in in_club.filter(grade__gte=low)}
        assert above == {str(g) for g in ALL_GRADES if g >= low}
        for high in (g for g in ALL_GRADES if g >= low):
            expected = sum(1 for g in ALL_GRADES if low <= g <= high)
            assert in_club.filter(grade__range=(low, high)).count() == expected


@pytest.mark.django_db
def test_other_models_grade_fields_round_trip() -> None:
    participant = ParticipantFactory(grade="2 dan")
    participant.refresh_from_db()
    assert participant.grade == Grade("d", 2)


@pytest.mark.django_db
def test_serialised_as_text_and_back() -> None:
    member = MemberFactory(grade="4k")
    data = serializers.serialize("json", [member])
    assert '"grade": "4k"' in data
    (restored,) = serializers.deserialize("json", data)
    assert restored.object.grade == Grade("k", 4)


def test_model_field_to_python() -> None:
    field = GradeField(null=True, blank=True)
    assert field.to_python("1p") == Grade("p", 1)
    assert field.to_python(None) is None
    with pytest.raises(ValidationError):
        field.to_python("10d")


def test_model_field_clean_accepts_a_grade() -> None:
    """The integer range validators must not compare a Grade with an int."""
    field = GradeField(null=True, blank=True)
    assert field.clean("3d", None) == Grade("d", 3)
    assert field.clean(Grade("p", 9), None) == Grade("p", 9)


# --- the form field ---------------------------------------------------------------------


def test_form_field_parses_any_spelling() -> None:
    field = GradeFormField(required=False)
    assert field.clean("5k") == Grade("k", 5)
    assert field.clean("5 kyu") == Grade("k", 5)
    assert field.clean("3D") == Grade("d", 3)
    assert field.clean("") is None
    with pytest.raises(ValidationError):
        field.clean("0k")
    with pytest.raises(ValidationError):
        field.clean("abc")


def test_form_field_required() -> None:
    with pytest.raises(ValidationError):
        GradeFormField(required=True).clean("")


def test_form_field_offers_every_grade_strongest_first() -> None:
    choices = [value for value, _label in GradeFormField().choices]
    assert choices[0] == ""
    assert choices[1:] == [str(g) for g in reversed(ALL_GRADES)]


@pytest.mark.parametrize("value", [Grade("k", 5), -4, "5k", "5 kyu"])
def test_form_field_shows_value(value: object) -> None:
    assert GradeFormField().prepare_value(value) == "5k"
    assert GradeFormField().prepare_value(None) == ""


class MemberGradeForm(forms.ModelForm):
    class Meta:
        model = Member
        fields = ["family_name", "grade"]


def test_model_form_uses_the_grade_field() -> None:
    assert isinstance(MemberGradeForm().fields["grade"], GradeFormField)


@pytest.mark.django_db
def test_model_form_shows_and_saves_grade() -> None:
    member = MemberFactory(grade="3d")
    member.refresh_from_db()
    html = str(MemberGradeForm(instance=member)["grade"])
    assert '<option value="3d" selected>' in html

    form = MemberGradeForm({"family_name": "Kim", "grade": "2 dan"}, instance=member)
    assert form.is_valid(), form.errors
    form.save()
    member.refresh_from_db()
    assert member.grade == Grade("d", 2)

    form = MemberGradeForm({"family_name": "Kim", "grade": "10d"}, instance=member)
    assert not form.is_valid()
    assert "grade" in form.errors

    form = MemberGradeForm({"family_name": "Kim", "grade": ""}, instance=member)
    assert form.is_valid(), form.errors
    assert form.save().grade is None


# --- EGF: egf.md §1 ------------------------------------------------------------------------

EGF_AMATEUR = [g for g in ALL_GRADES if g.kind == "d" or (g.kind == "k" and g.level <= 20)]
EGF_PRO = [g for g in ALL_GRADES if g.kind == "p"]


@pytest.mark.parametrize(
    ("text", "gor"),
    [
        ("20k", 100),
        ("30k", 100),
        ("21k", 100),
        ("10k", 1100),
        ("1k", 2000),
        ("1d", 2100),
        ("7d", 2700),
        ("1p", 2700),
        ("2p", 2730),
        ("9p", 2940),
    ],
)
def test_egf_grade_values(text: str, gor: float) -> None:
    assert egf.grade_to_gor(Grade.parse(text)) == gor


@given(st.sampled_from(EGF_AMATEUR))
def test_egf_amateur_round_trip(grade: Grade) -> None:
    assert egf.rating_to_grade(egf.grade_to_gor(grade), professional=False) == grade


@given(st.sampled_from([g for g in EGF_AMATEUR if g <= Grade("d", 7)]))
def test_egf_amateur_round_trip_20k_to_7d_with_pros_allowed(grade: Grade) -> None:
    expected = Grade("p", 1) if grade == Grade("d", 7) else grade  # 7d = 1p = 2700: the stronger
    assert egf.rating_to_grade(egf.grade_to_gor(grade)) == expected


@given(st.sampled_from(EGF_PRO))
def test_egf_pro_round_trip(grade: Grade) -> None:
    assert egf.rating_to_grade(egf.grade_to_gor(grade)) == grade


@given(
    st.sampled_from([g for g in EGF_AMATEUR if g > Grade("k", 20)]),
    st.floats(min_value=-49.99, max_value=49.99),
)
def test_egf_nearest_amateur_grade(grade: Grade, offset: float) -> None:
    rating = egf.grade_to_gor(grade) + offset
    assert egf.rating_to_grade(rating, professional=False) == grade


@given(st.floats(min_value=-500, max_value=3500), st.floats(min_value=0, max_value=400))
def test_egf_grade_never_falls_as_rating_rises(rating: float, rise: float) -> None:
    higher = rating + rise
    amateur = egf.rating_to_grade(rating, professional=False)
    assert amateur <= egf.rating_to_grade(higher, professional=False)
    # With professional grades the scales overlap (1p = 7d, 4p < 8d): monotonic in GoR value.
    shown, shown_higher = egf.rating_to_grade(rating), egf.rating_to_grade(higher)
    assert egf.grade_to_gor(shown) <= egf.grade_to_gor(shown_higher)


def test_egf_ties_go_to_the_stronger_grade() -> None:
    assert egf.rating_to_grade(2050, professional=False) == Grade("d", 1)
    assert egf.rating_to_grade(2049.9, professional=False) == Grade("k", 1)
    assert egf.rating_to_grade(-300, professional=False) == Grade("k", 20)
    assert egf.rating_to_grade(5000, professional=False) == Grade("d", 9)
    assert egf.rating_to_grade(5000) == Grade("p", 9)


# --- UFGO: table 1 -------------------------------------------------------------------------

UFGO_TABLE = [g for g in ALL_GRADES if g <= Grade("d", 7)]


def test_ufgo_table1_covers_30k_to_7d() -> None:
    assert [grade for _low, grade in ufgo_grades.TABLE1] == UFGO_TABLE


@pytest.mark.parametrize(
    ("text", "ik"),
    [
        ("30k", 0),
        ("21k", 90),
        ("20k", 100),
        ("10k", 1100),
        ("1k", 2000),
        ("1d", 2100),
        ("7d", 2700),
    ],
)
def test_ufgo_table1_values(text: str, ik: int) -> None:
    assert ufgo_grades.t1_start(Grade.parse(text)) == ik


@given(st.sampled_from(UFGO_TABLE))
def test_ufgo_grade_to_ik_round_trip(grade: Grade) -> None:
    assert ufgo_grades.grade_of(ufgo_grades.t1_start(grade)) == grade
    assert ufgo_grades.ufgo_grade_for_rating(ufgo_grades.t1_start(grade)) == grade


@given(st.sampled_from(UFGO_TABLE), st.floats(min_value=0, max_value=1, exclude_max=True))
def test_ufgo_every_ik_of_a_band_gives_its_grade(grade: Grade, where: float) -> None:
    low, high = ufgo_grades.ik_range(grade)
    ik = low + where * ((high if high is not None else low + 1000) - low)
    assume(high is None or ik < high)
    assert ufgo_grades.grade_of(ik) == grade


@given(st.integers(min_value=-1000, max_value=4000))
def test_ufgo_ik_to_grade_to_ik(ik: int) -> None:
    grade = ufgo_grades.grade_of(ik)
    low, high = ufgo_grades.ik_range(grade)
    if ik < 0:
        assert grade == Grade("k", 30)
    else:
        assert low <= ik and (high is None or ik < high)


@given(st.sampled_from([g for g in ALL_GRADES if g > Grade("d", 7)]))
def test_ufgo_above_7d_starts_at_2700(grade: Grade) -> None:
    assert ufgo_grades.t1_start(grade) == 2700
    assert ufgo_grades.grade_of(ufgo_grades.t1_start(grade)) == Grade("d", 7)


@given(st.floats(min_value=-100, max_value=3000), st.floats(min_value=0, max_value=500))
def test_ufgo_grade_never_falls_as_ik_rises(ik: float, rise: float) -> None:
    assert ufgo_grades.grade_of(ik) <= ufgo_grades.grade_of(ik + rise)
