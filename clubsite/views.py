from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "clubsite/home.html")


def my_profile(request, **kw):
    return HttpResponse("")


club_detail = calculator = my_profile
