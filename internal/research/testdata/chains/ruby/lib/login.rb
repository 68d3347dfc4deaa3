require_relative 'auth'

def handle_login(path)
  authenticate('guest', 'secret')
end
