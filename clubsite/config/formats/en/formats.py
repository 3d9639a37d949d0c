"""English pages write dates the British way (issue 55, finding 11): the users are European,
and Django's `en` formats are the US ones (10/08/2026 for 8 October). Django's `en_GB`
formats, with the month written out in long dates and the 24-hour clock used in Europe."""

DATE_FORMAT = "j F Y"  # 8 October 2026
TIME_FORMAT = "H:i"  # 14:30
DATETIME_FORMAT = "j F Y, H:i"  # 8 October 2026, 14:30
YEAR_MONTH_FORMAT = "F Y"  # October 2026
MONTH_DAY_FORMAT = "j F"  # 8 October
SHORT_DATE_FORMAT = "d/m/Y"  # 08/10/2026
SHORT_DATETIME_FORMAT = "d/m/Y H:i"  # 08/10/2026 14:30
FIRST_DAY_OF_WEEK = 1  # Monday

DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y"]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M:%S.%f",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M:%S.%f",
    "%d/%m/%Y %H:%M",
    "%d/%m/%y %H:%M:%S",
    "%d/%m/%y %H:%M",
]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
