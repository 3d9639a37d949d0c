from django.http import HttpResponse


def tournament_list(request, **kw):
    return HttpResponse("")


tournament_detail = tournament_list
