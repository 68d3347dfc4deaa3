require_relative 'login'

class Router
  def route(path)
    handle_login(path) if path == '/login'
  end
end
