from app.web import router


def main():
    router.route("/login")


if __name__ == "__main__":
    main()
