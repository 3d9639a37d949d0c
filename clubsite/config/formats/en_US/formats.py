"""English pages for a user whose profile asks for US dates (`Profile.date_style`, activated
as `en-us` by `clubsite.config.date_style`): Django's `en` order, the month written out."""

DATE_FORMAT = "F j, Y"  # October 8, 2026
TIME_FORMAT = "P"  # 2:30 p.m.
DATETIME_FORMAT = "F j, Y, P"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "F j"
SHORT_DATE_FORMAT = "m/d/Y"  # 10/08/2026
SHORT_DATETIME_FORMAT = "m/d/Y P"
FIRST_DAY_OF_WEEK = 0  # Sunday

DATE_INPUT_FORMATS = ["%Y-%m-%d", "%m/%d/%Y", "%m/%d/%y"]
