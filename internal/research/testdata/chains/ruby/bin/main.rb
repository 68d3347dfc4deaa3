require_relative '../lib/router'

def main
  Router.new.route('/login')
end

main
