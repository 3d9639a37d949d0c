from django.http import HttpResponse


def rating_lists(request, **kw):
    return HttpResponse("")


rating_list = rating_list_csv = rating_snapshot = player_detail = rating_lists
