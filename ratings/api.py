from django.http import HttpResponse


def api_index(request, **kw):
    return HttpResponse("")


api_rating_lists = api_rating_list = api_player = api_tournament = api_index
